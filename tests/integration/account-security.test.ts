/**
 * Accounts against an attacker (issue 17): a deleted account stays deleted (its still-valid token
 * never brings the profile back), codes and passwords cannot be guessed from many client addresses,
 * a stolen access token cannot change the password, reserved metadata stays the service's, and no
 * client-named key or ill-formed text reaches a 500. Through supabase-js and the product API, on
 * both databases.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { and, desc, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authSessions, authUsers } from '../../functions/auth/tables.ts';
import { emails } from '../../functions/email/tables.ts';
import { profiles } from '../../functions/users/tables.ts';
import { createRateLimitService } from '../../functions/platform/abuse/service.ts';
import { createRateLimitStore, MARK_DAYS } from '../../functions/platform/abuse/store.ts';
import { rateLimits } from '../../functions/platform/abuse/tables.ts';
import { CODE_FAILURES, MAX_CODE_ATTEMPTS } from '../../functions/auth/guessing.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import type { Api, Answer } from '../support/answers.ts';
import { DATABASE_KINDS } from '../support/databases.ts';

const PASSWORD = 'correct horse battery';
/** Small password budgets, so the tests reach them quickly (the defaults are 5 and 20). */
const TRIES_PER_ADDRESS = 3;
const TRIES_PER_ACCOUNT = 8;

describe.each(DATABASE_KINDS)('account security on %s', (kind) => {
  let t: TestApp;
  let ip = 0;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, {
      AUTH_MAIL_COOLDOWN_SECONDS: '0',
      AUTH_BCRYPT_COST: '4',
      AUTH_PASSWORD_TRIES_PER_ADDRESS: String(TRIES_PER_ADDRESS),
      AUTH_PASSWORD_TRIES_PER_ACCOUNT: String(TRIES_PER_ACCOUNT),
    });
  });
  afterAll(() => t?.close());
  beforeEach(() => {
    ip += 1;
  });

  /** Each call from another client address, as an attacker with many addresses would send them. */
  const nextAddress = () => `10.7.${Math.floor(++ip / 250)}.${ip % 250}`;
  function client(address = nextAddress): SupabaseClient {
    return createClient(t.config.siteUrl, 'public-anon-key', {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      global: {
        fetch: async (input, init) => {
          const headers = new Headers(init?.headers);
          headers.set('x-forwarded-for', address());
          return t.app.request(input instanceof Request ? input : String(input), { ...init, headers });
        },
      },
    });
  }
  const db = () => t.database.db;
  const email = (name: string) => `${name}-${kind}@security.example`;
  async function latestMail(to: string, template?: string) {
    const [mail] = await db()
      .select()
      .from(emails)
      .where(template ? and(eq(emails.to, to), eq(emails.template, template)) : eq(emails.to, to))
      .orderBy(desc(emails.createdAt))
      .limit(1);
    return mail;
  }
  const linkIn = (text: string) => /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(text)![0];
  const codeIn = (text: string) => /: (\d{6})\b/.exec(text)![1]!;
  const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  async function member(name: string) {
    const address = email(name);
    const id = await t.services.auth.createConfirmedUser(address, PASSWORD, 'Member');
    const { data } = await client().auth.signInWithPassword({ email: address, password: PASSWORD });
    return { id, address, session: data.session! };
  }
  const api = (token: string, method: string, path: string, body?: unknown) =>
    t.app.request(path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'x-forwarded-for': nextAddress(),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });

  describe('a deleted account stays deleted', () => {
    it('refuses the deleted member’s still-valid token everywhere and never re-creates the profile', async () => {
      const { id, address, session } = await member('zombie');
      const token = session.access_token;
      const feed = ((await (await api(token, 'GET', '/api/users/me/feed')).json()) as Answer<Api['users']['me']['feed']['$get']>).url;
      expect((await t.app.request(new URL(feed).pathname)).status).toBe(200);

      expect((await api(token, 'DELETE', '/api/users/me')).status).toBe(204);
      const tries: [string, string, unknown?][] = [
        ['GET', '/api/users/me'],
        ['GET', '/api/users/me/feed'],
        ['POST', '/api/users/me/feed/reset'],
        ['PATCH', '/api/users/me', { name: 'Back again' }],
        ['GET', '/api/users/me/progress'],
        ['GET', '/api/payments/purchases'],
        [
          'POST',
          '/api/payments/stripe/create-session',
          { priceId: 'price_premium_monthly', successUrl: '/account', cancelUrl: '/pricing' },
        ],
        ['GET', '/api/content/blogs/ecommerce-launch-first-90-days/body'],
      ];
      for (const [method, path, body] of tries) {
        const res = await api(token, method, path, body);
        expect(res.status, `${method} ${path}`).toBe(401);
      }
      expect(await db().select().from(profiles).where(eq(profiles.id, id))).toEqual([]);
      expect((await t.app.request(new URL(feed).pathname)).status).toBe(404);

      // Signing up again with the address makes one new account with one profile.
      await client().auth.signUp({ email: address, password: 'a new password here' });
      await t.app.request(linkIn((await latestMail(address, 'auth-confirm-signup'))!.bodyText));
      const again = await client().auth.signInWithPassword({ email: address, password: 'a new password here' });
      expect((await api(again.data.session!.access_token, 'GET', '/api/users/me')).status).toBe(200);
      expect(await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.email, address))).toHaveLength(1);
      expect((await t.app.request(new URL(feed).pathname)).status).toBe(404);
    });
  });

  describe('codes cannot be guessed from many addresses', () => {
    it('voids a mailed code after a few wrong tries; the next mail carries a new one that works', async () => {
      const { address } = await member('code-void');
      expect((await client().auth.resetPasswordForEmail(address)).error).toBeNull();
      const code = codeIn((await latestMail(address, 'auth-recovery'))!.bodyText);
      for (let i = 0; i < MAX_CODE_ATTEMPTS; i += 1) {
        const wrong = await client().auth.verifyOtp({ email: address, token: otherCode(code), type: 'recovery' });
        expect(wrong.error, `try ${i}`).toMatchObject({ status: 403, code: 'otp_expired' });
      }
      // The right code, typed after too many wrong ones, no longer opens anything.
      expect((await client().auth.verifyOtp({ email: address, token: code, type: 'recovery' })).error).toMatchObject({ status: 403 });
      expect((await client().auth.resetPasswordForEmail(address)).error).toBeNull();
      const fresh = codeIn((await latestMail(address, 'auth-recovery'))!.bodyText);
      const { data, error } = await client().auth.verifyOtp({ email: address, token: fresh, type: 'recovery' });
      expect(error).toBeNull();
      expect(data.session?.access_token).toBeTruthy();
    });

    it('stops typed codes for an account after its daily budget of wrong ones, while the mailed link still works', async () => {
      const { address } = await member('code-budget');
      for (let round = 0; round * (MAX_CODE_ATTEMPTS - 1) < CODE_FAILURES.max; round += 1) {
        await client().auth.resetPasswordForEmail(address);
        const code = codeIn((await latestMail(address, 'auth-recovery'))!.bodyText);
        for (let i = 0; i < MAX_CODE_ATTEMPTS - 1; i += 1)
          await client().auth.verifyOtp({ email: address, token: otherCode(code), type: 'recovery' });
      }
      await client().auth.resetPasswordForEmail(address);
      const mail = (await latestMail(address, 'auth-recovery'))!;
      const typed = await client().auth.verifyOtp({ email: address, token: codeIn(mail.bodyText), type: 'recovery' });
      expect(typed.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
      const followed = await t.app.request(linkIn(mail.bodyText));
      expect(new URLSearchParams(followed.headers.get('location')!.split('#')[1]).get('access_token')).toBeTruthy();
    });
  });

  describe('passwords cannot be guessed from many addresses, nor used to lock the owner out', () => {
    const sameAddress = (address: string) => () => address;
    const wrongFrom = (sb: SupabaseClient, email: string, i: number) => sb.auth.signInWithPassword({ email, password: `wrong guess ${i}` });

    it('never lets strangers’ failures refuse the owner’s correct password from an address the owner signed in from', async () => {
      const { address } = await member('owner-home');
      const home = sameAddress(nextAddress());
      expect((await client(home).auth.signInWithPassword({ email: address, password: PASSWORD })).error).toBeNull();
      for (let i = 0; i < TRIES_PER_ACCOUNT * 2; i += 1) await wrongFrom(client(), address, i);

      const owner = await client(home).auth.signInWithPassword({ email: address, password: PASSWORD });
      expect(owner.error).toBeNull();
      expect(owner.data.session?.access_token).toBeTruthy();
    });

    it('gives one address only a few tries at an account, then refuses it even the right one, alike for unknown addresses; other addresses and a mailed link are not held', async () => {
      const { address } = await member('one-address');
      const unknown = email('nobody-has-this');
      const here = client(sameAddress(nextAddress()));
      for (let i = 0; i < TRIES_PER_ADDRESS; i += 1) {
        expect((await wrongFrom(here, address, i)).error, `try ${i}`).toMatchObject({ status: 400, code: 'invalid_credentials' });
        expect((await wrongFrom(here, unknown, i)).error, `try ${i}`).toMatchObject({ status: 400, code: 'invalid_credentials' });
      }
      const locked = await here.auth.signInWithPassword({ email: address, password: PASSWORD });
      expect(locked.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
      expect(locked.error!.message).toMatch(/from your network.*sign in with a link sent to your email/);
      // The same answer whether or not the address has an account.
      const lockedUnknown = await here.auth.signInWithPassword({ email: unknown, password: PASSWORD });
      expect(lockedUnknown.error).toMatchObject({ status: 429, code: 'over_request_rate_limit', message: locked.error!.message });

      // Another address is not held by this one's tries.
      expect((await client().auth.signInWithPassword({ email: address, password: PASSWORD })).error).toBeNull();
      // A mailed link followed from here lifts this address's lock.
      expect((await here.auth.signInWithOtp({ email: address, options: { shouldCreateUser: false } })).error).toBeNull();
      const link = linkIn((await latestMail(address, 'auth-magic-link'))!.bodyText);
      expect((await here.auth.verifyOtp({ token_hash: new URL(link).searchParams.get('token')!, type: 'magiclink' })).error).toBeNull();
      expect((await here.auth.signInWithPassword({ email: address, password: PASSWORD })).error).toBeNull();
    });

    it('bounds the tries of many addresses at one account: past them a password alone is not enough from a new address, and a mailed code gets the owner in', async () => {
      const { address } = await member('spread');
      const codes: string[] = [];
      for (let i = 0; i < TRIES_PER_ACCOUNT + 5; i += 1) codes.push((await wrongFrom(client(), address, i)).error?.code ?? 'none');
      expect(codes.filter((c) => c === 'invalid_credentials')).toHaveLength(TRIES_PER_ACCOUNT);
      expect(codes.slice(TRIES_PER_ACCOUNT)).toEqual(Array(5).fill('over_request_rate_limit'));

      // From a new address the right password gets the words a wrong one gets, and an address without an account.
      const right = await client().auth.signInWithPassword({ email: address, password: PASSWORD });
      expect(right.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
      expect(right.error!.message).toMatch(/link or code sent to your email/);
      expect((await wrongFrom(client(), address, 99)).error?.message).toBe(right.error!.message);
      const unknown = email('nobody-spread');
      for (let i = 0; i < TRIES_PER_ACCOUNT; i += 1) await wrongFrom(client(), unknown, i);
      expect((await client().auth.signInWithPassword({ email: unknown, password: PASSWORD })).error?.message).toBe(right.error!.message);

      // The owner on a new device: a mailed code gets in, and the password then works from there.
      const phone = client(sameAddress(nextAddress()));
      expect((await phone.auth.signInWithOtp({ email: address, options: { shouldCreateUser: false } })).error).toBeNull();
      const code = codeIn((await latestMail(address, 'auth-magic-link'))!.bodyText);
      expect((await phone.auth.verifyOtp({ email: address, token: code, type: 'email' })).data.session?.access_token).toBeTruthy();
      expect((await phone.auth.signInWithPassword({ email: address, password: PASSWORD })).error).toBeNull();
      // Strangers are still held.
      expect((await client().auth.signInWithPassword({ email: address, password: PASSWORD })).error?.message).toBe(right.error!.message);
    });

    it('remembers the owner’s address through the hourly prune for 30 days, then asks that address for a mailed code too', async () => {
      const { address } = await member('remembered');
      const home = sameAddress(nextAddress());
      expect((await client(home).auth.signInWithPassword({ email: address, password: PASSWORD })).error).toBeNull();
      for (let i = 0; i < TRIES_PER_ACCOUNT; i += 1) await wrongFrom(client(), address, i);
      const prune = () => createRateLimitService(createRateLimitStore(db()), new Uint8Array(32)).prune();
      const age = (days: number) =>
        db()
          .update(rateLimits)
          .set({ windowStart: sql`now() - make_interval(days => ${days})` })
          .where(like(rateLimits.key, 'mark:%'));

      await age(MARK_DAYS - 1);
      await prune();
      expect((await client(home).auth.signInWithPassword({ email: address, password: PASSWORD })).error).toBeNull();
      await age(MARK_DAYS + 1);
      await prune();
      expect((await client(home).auth.signInWithPassword({ email: address, password: PASSWORD })).error).toMatchObject({
        status: 429,
        message: expect.stringMatching(/link or code sent to your email/),
      });
    });

    it('keeps the bound when the tries come all at once', async () => {
      const { address } = await member('at-once');
      const answers = await Promise.all(Array.from({ length: TRIES_PER_ACCOUNT * 2 }, (_, i) => wrongFrom(client(), address, i)));
      const codes = answers.map((a) => a.error?.code);
      expect(codes.filter((c) => c === 'invalid_credentials')).toHaveLength(TRIES_PER_ACCOUNT);
      expect(codes.filter((c) => c === 'over_request_rate_limit')).toHaveLength(TRIES_PER_ACCOUNT);
    });

    it('counts wrong current passwords of a password change like sign-ins', async () => {
      const { session } = await member('change-tries');
      const here = sameAddress(nextAddress());
      const change = (current: string) =>
        t.app.request('/auth/v1/user', {
          method: 'PUT',
          headers: { authorization: `Bearer ${session.access_token}`, 'content-type': 'application/json', 'x-forwarded-for': here() },
          body: JSON.stringify({ password: 'taken over passphrase', current_password: current }),
        });
      await db()
        .update(authSessions)
        .set({ createdAt: new Date(Date.now() - 3_600_000) })
        .where(eq(authSessions.userId, session.user.id));
      for (let i = 0; i < TRIES_PER_ADDRESS; i += 1) expect((await change(`not it ${i}`)).status).toBe(400);
      const held = await change(PASSWORD);
      expect(held.status).toBe(429);
      expect(await held.json()).toMatchObject({ error_code: 'over_request_rate_limit' });
    });

    it('refuses a password that is only whitespace', async () => {
      const { error } = await client().auth.signUp({ email: email('spaces'), password: '            ' });
      expect(error).toMatchObject({ status: 422, code: 'weak_password' });
    });
  });

  describe('a stolen access token cannot change the password', () => {
    /** A signed-in client whose session began an hour ago (a token stolen later, say). */
    async function agedSession(name: string) {
      const { id, address, session } = await member(name);
      const sessionId = JSON.parse(Buffer.from(session.access_token.split('.')[1]!, 'base64url').toString()).session_id as string;
      await db()
        .update(authSessions)
        .set({ createdAt: new Date(Date.now() - 3_600_000) })
        .where(eq(authSessions.id, sessionId));
      const sb = client();
      await sb.auth.setSession(session);
      return { id, address, sb };
    }

    it('lets a fresh session change it, and mails the owner with a way back in', async () => {
      const { address } = await member('fresh-change');
      const sb = client();
      const { data } = await sb.auth.signInWithPassword({ email: address, password: PASSWORD });
      await sb.auth.setSession(data.session!);
      expect((await sb.auth.updateUser({ password: 'a brand new passphrase' })).error).toBeNull();
      const mail = (await latestMail(address, 'auth-password-changed'))!;
      expect(mail.bodyText).toContain(`${t.config.siteUrl}/forgot-password`);
    });

    it('asks an older session for proof: refused bare, refused with a wrong current password, accepted with the right one', async () => {
      const { address, sb } = await agedSession('aged-current');
      expect((await sb.auth.updateUser({ password: 'taken over passphrase' })).error).toMatchObject({
        status: 400,
        code: 'reauthentication_needed',
      });
      // "same_password" would tell the thief that a guess is right: the proof comes first.
      expect((await sb.auth.updateUser({ password: PASSWORD })).error).toMatchObject({ code: 'reauthentication_needed' });
      const wrong = await t.app.request('/auth/v1/user', {
        method: 'PUT',
        headers: { authorization: `Bearer ${(await sb.auth.getSession()).data.session!.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ password: 'taken over passphrase', current_password: 'not the password' }),
      });
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toMatchObject({ error_code: 'current_password_invalid' });
      const right = await t.app.request('/auth/v1/user', {
        method: 'PUT',
        headers: { authorization: `Bearer ${(await sb.auth.getSession()).data.session!.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ password: 'owner changed passphrase', current_password: PASSWORD }),
      });
      expect(right.status).toBe(200);
      expect((await client().auth.signInWithPassword({ email: address, password: 'owner changed passphrase' })).error).toBeNull();
    });

    it('accepts the reauthentication code mailed to the owner (GoTrue’s secure password change), once', async () => {
      const { address, sb } = await agedSession('aged-nonce');
      expect((await sb.auth.reauthenticate()).error).toBeNull();
      const nonce = codeIn((await latestMail(address, 'auth-reauthentication'))!.bodyText);
      expect((await sb.auth.updateUser({ password: 'wrong code passphrase', nonce: otherCode(nonce) })).error).toMatchObject({
        status: 400,
        code: 'reauthentication_not_valid',
      });
      expect((await sb.auth.updateUser({ password: 'nonce changed passphrase', nonce })).error).toBeNull();
      expect((await sb.auth.updateUser({ password: 'second change passphrase', nonce })).error).toMatchObject({
        code: 'reauthentication_not_valid',
      });
    });

    it('lets a reset link’s session set the password for the link’s lifetime', async () => {
      const { address } = await member('aged-recovery');
      await client().auth.resetPasswordForEmail(address);
      const sb = client();
      const { data } = await sb.auth.verifyOtp({
        email: address,
        token: codeIn((await latestMail(address, 'auth-recovery'))!.bodyText),
        type: 'recovery',
      });
      const sessionId = JSON.parse(Buffer.from(data.session!.access_token.split('.')[1]!, 'base64url').toString()).session_id as string;
      await db()
        .update(authSessions)
        .set({ createdAt: new Date(Date.now() - 30 * 60_000) })
        .where(eq(authSessions.id, sessionId));
      await sb.auth.setSession(data.session!);
      expect((await sb.auth.updateUser({ password: 'recovered later passphrase' })).error).toBeNull();
    });
  });

  describe('reserved metadata stays the service’s', () => {
    it('ignores sub, email and email_verified written by the member', async () => {
      const { id, address } = await member('metadata');
      const sb = client();
      const { data } = await sb.auth.signInWithPassword({ email: address, password: PASSWORD });
      await sb.auth.setSession(data.session!);
      const { data: updated, error } = await sb.auth.updateUser({
        data: { sub: '00000000-0000-0000-0000-000000000001', email: 'boss@evil.example', email_verified: false, theme: 'dark' },
      });
      expect(error).toBeNull();
      expect(updated.user!.user_metadata).toMatchObject({ sub: id, email: address, email_verified: true, theme: 'dark' });
    });
  });

  describe('client-named keys and ill-formed text never reach a 500', () => {
    it('refuses a verify type naming a built-in property with 4xx', async () => {
      for (const type of ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf']) {
        const posted = await t.app.request('/auth/v1/verify', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
          body: JSON.stringify({ type, token_hash: 'a'.repeat(56) }),
        });
        expect(posted.status, type).toBe(400);
        const linked = await t.app.request(`/auth/v1/verify?type=${type}&token=${'a'.repeat(56)}`, {
          headers: { 'x-forwarded-for': nextAddress() },
        });
        expect(linked.status, type).toBeLessThan(500);
      }
    });

    it('refuses a lone surrogate in sign-up data, addresses and user updates with 422, storing nothing', async () => {
      const users = (await db().select().from(authUsers)).length;
      const bad = [
        ['/auth/v1/signup', 'POST', { email: email('surrogate'), password: PASSWORD, data: { name: 'a\ud800b' } }],
        ['/auth/v1/signup', 'POST', { email: `x\udc00${email('surrogate')}`, password: PASSWORD }],
        ['/auth/v1/signup', 'POST', { email: email('surrogate-key'), password: PASSWORD, data: { 'k\ud800': 'v' } }],
        ['/auth/v1/otp', 'POST', { email: email('surrogate-otp'), data: { name: '\udfff' } }],
        ['/auth/v1/recover', 'POST', { email: `\ud83d${email('x')}` }],
        // Nested deeper than any form sends (a recursive check would exhaust the stack).
        [
          '/auth/v1/signup',
          'POST',
          `{"email":"${email('deep')}","password":"${PASSWORD}","data":{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`,
        ],
      ] as const;
      for (const [path, method, body] of bad) {
        const text = typeof body === 'string' ? body : JSON.stringify(body);
        const res = await t.app.request(path, {
          method,
          headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
          body: text,
        });
        expect(res.status, `${path} ${text.slice(0, 80)}`).toBe(422);
      }
      expect((await db().select().from(authUsers)).length).toBe(users);
      const { session } = await member('surrogate-update');
      const res = await t.app.request('/auth/v1/user', {
        method: 'PUT',
        headers: { authorization: `Bearer ${session.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ data: { bio: 'fine \ud800 not' } }),
      });
      expect(res.status).toBe(422);
    });
  });
});
