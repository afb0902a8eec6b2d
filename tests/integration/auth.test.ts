/**
 * The embedded auth service through the unmodified supabase-js client, on both databases: sign-up
 * with confirmation by the mailed link, sign-in, refresh rotation with reuse detection, getUser and
 * getClaims through the JWKS, updateUser, the three sign-out scopes, recovery, sign-in links, resend,
 * and the contract's error codes. The client's fetch goes straight into the app (no port).
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { and, desc, eq } from 'drizzle-orm';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authRefreshTokens, authSessions, authUsers } from '../../functions/auth/tables.ts';
import { emails } from '../../functions/email/tables.ts';
import { profiles } from '../../functions/users/tables.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import type { JwksAnswer } from '../support/answers.ts';
import { DATABASE_KINDS } from '../support/databases.ts';
import { badTokens } from '../support/tokens.ts';

const PASSWORD = 'correct horse battery';

describe.each(DATABASE_KINDS)('embedded auth on %s', (kind) => {
  let t: TestApp;
  let ip = 0;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_MAIL_COOLDOWN_SECONDS: '0', AUTH_BCRYPT_COST: '4' });
  });
  afterAll(() => t?.close());
  beforeEach(() => {
    ip += 1; // a fresh client address per test keeps the per-IP limits out of the way
  });

  const site = () => t.config.siteUrl;
  /** A fresh supabase-js client whose requests go into the app. */
  function client(): SupabaseClient {
    const address = `10.1.0.${ip}`;
    return createClient(site(), 'public-anon-key', {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      global: {
        fetch: async (input, init) => {
          const headers = new Headers(init?.headers);
          headers.set('x-forwarded-for', address);
          return t.app.request(input instanceof Request ? input : String(input), { ...init, headers });
        },
      },
    });
  }
  const db = () => t.database.db;
  const email = (name: string) => `${name}-${kind}@example.test`;
  async function latestMail(to: string) {
    const [mail] = await db().select().from(emails).where(eq(emails.to, to)).orderBy(desc(emails.createdAt)).limit(1);
    return mail;
  }
  const linkIn = (text: string) => /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(text)![0];
  const codeIn = (text: string) => /code: (\d{6})/.exec(text)![1]!;

  /** Opens the mailed link as a browser would; returns the redirect's fragment. */
  async function follow(link: string) {
    const res = await t.app.request(link, { headers: { 'x-forwarded-for': `10.1.0.${ip}` } });
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    return { location, fragment: new URLSearchParams(location.split('#')[1]) };
  }

  async function confirmedUser(name: string) {
    const address = email(name);
    const sb = client();
    await sb.auth.signUp({ email: address, password: PASSWORD, options: { data: { name: 'Ada' } } });
    await follow(linkIn((await latestMail(address))!.bodyText));
    return address;
  }

  it('signs up with a confirmation mail, refuses sign-in until the link is followed, then signs in', async () => {
    const address = email('ada');
    const sb = client();
    const { data, error } = await sb.auth.signUp({ email: address, password: PASSWORD, options: { data: { name: 'Ada' } } });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user).toMatchObject({ email: address, aud: 'authenticated', role: 'authenticated' });
    expect(data.user!.identities).toHaveLength(1);
    expect(data.user!.user_metadata).toMatchObject({ name: 'Ada', email_verified: false, sub: data.user!.id });
    expect(data.user!.email_confirmed_at).toBeUndefined();

    const early = await sb.auth.signInWithPassword({ email: address, password: PASSWORD });
    expect(early.error).toMatchObject({ status: 400, code: 'email_not_confirmed', message: 'Email not confirmed' });

    const mail = (await latestMail(address))!;
    expect(mail.template).toBe('auth-confirm-signup');
    const { location, fragment } = await follow(linkIn(mail.bodyText));
    expect(location.startsWith(site())).toBe(true);
    expect(fragment.get('type')).toBe('signup');
    expect(fragment.get('token_type')).toBe('bearer');
    expect(Number(fragment.get('expires_in'))).toBe(3600);
    const confirmedToken = fragment.get('access_token')!;
    expect((await sb.auth.getUser(confirmedToken)).data.user).toMatchObject({ email: address, user_metadata: { email_verified: true } });
    // The link works once.
    expect((await follow(linkIn(mail.bodyText))).fragment.get('error_code')).toBe('otp_expired');

    const signedIn = await sb.auth.signInWithPassword({ email: address.toUpperCase(), password: PASSWORD });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.session).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(signedIn.data.user!.last_sign_in_at).toBeTruthy();
  });

  it('answers a sign-up for a confirmed address with a look-alike user and sends nothing', async () => {
    const address = await confirmedUser('taken');
    const before = await db().select().from(emails).where(eq(emails.to, address));
    const { data, error } = await client().auth.signUp({ email: address, password: 'another password' });
    expect(error).toBeNull();
    expect(data.user!.identities).toEqual([]);
    expect(await db().select().from(emails).where(eq(emails.to, address))).toHaveLength(before.length);
    expect((await client().auth.signInWithPassword({ email: address, password: PASSWORD })).error).toBeNull();
  });

  it('gives the contract’s errors for wrong passwords, unknown users, weak and overlong passwords and bad addresses', async () => {
    const address = await confirmedUser('errors');
    const sb = client();
    for (const attempt of [
      { email: address, password: 'wrong password' },
      { email: email('nobody'), password: PASSWORD },
    ]) {
      const { error } = await sb.auth.signInWithPassword(attempt);
      expect(error).toMatchObject({ status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' });
    }
    const weak = await sb.auth.signUp({ email: email('weak'), password: 'short' });
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password', message: 'Password should be at least 8 characters.' });
    expect(weak.error).toHaveProperty('reasons', ['length']);
    const long = await sb.auth.signUp({ email: email('long'), password: 'x'.repeat(73) });
    expect(long.error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Password cannot be longer than 72 characters' });
    const bad = await sb.auth.signUp({ email: 'not an address', password: PASSWORD });
    expect(bad.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Unable to validate email address: invalid format',
    });
    const nul = await sb.auth.signUp({ email: email('nul'), password: PASSWORD, options: { data: { name: 'a\u0000b' } } });
    expect(nul.error).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(
      await db()
        .select()
        .from(authUsers)
        .where(eq(authUsers.email, email('nul'))),
    ).toHaveLength(0);
  });

  it('rotates refresh tokens, tolerates a lost answer, and revokes the session when an old token is replayed', async () => {
    const address = await confirmedUser('refresh');
    const sb = client();
    const { data } = await sb.auth.signInWithPassword({ email: address, password: PASSWORD });
    const first = data.session!.refresh_token;
    const second = (await sb.auth.refreshSession({ refresh_token: first })).data.session!;
    expect(second.refresh_token).not.toBe(first);
    expect(decodeJwt(second.access_token).session_id).toBe(decodeJwt(data.session!.access_token).session_id);
    // The client lost the answer and asks again: it gets the current token, no new one.
    const again = (await sb.auth.refreshSession({ refresh_token: first })).data.session!;
    expect(again.refresh_token).toBe(second.refresh_token);
    const third = (await sb.auth.refreshSession({ refresh_token: second.refresh_token })).data.session!;
    // Replaying the first token outside the reuse window signs the whole session out.
    await db()
      .update(authRefreshTokens)
      .set({ usedAt: new Date(Date.now() - 60_000) })
      .where(eq(authRefreshTokens.sessionId, String(decodeJwt(third.access_token).session_id)));
    const replay = await sb.auth.refreshSession({ refresh_token: first });
    expect(replay.error).toMatchObject({ status: 400, code: 'refresh_token_already_used' });
    const after = await sb.auth.refreshSession({ refresh_token: third.refresh_token });
    expect(after.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
    expect((await sb.auth.getUser(third.access_token)).error).toMatchObject({ name: 'AuthSessionMissingError' });
    const forged = await sb.auth.refreshSession({ refresh_token: `${third.refresh_token.slice(0, 22)}${'A'.repeat(22)}` });
    expect(forged.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
  });

  it('verifies tokens through the JWKS with getClaims, and publishes only public keys', async () => {
    const address = await confirmedUser('claims');
    const sb = client();
    const { data } = await sb.auth.signInWithPassword({ email: address, password: PASSWORD });
    const header = decodeProtectedHeader(data.session!.access_token);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'JWT' });
    const jwks = (await (await t.app.request('/auth/v1/.well-known/jwks.json')).json()) as JwksAnswer;
    expect(jwks.keys.map((k) => k.kid)).toContain(header.kid);
    for (const key of jwks.keys) {
      expect(key).not.toHaveProperty('d');
      expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', key_ops: ['verify'] });
    }
    const claims = await sb.auth.getClaims(data.session!.access_token);
    expect(claims.error).toBeNull();
    expect(claims.data!.claims).toMatchObject({
      sub: data.user!.id,
      email: address,
      aud: 'authenticated',
      role: 'authenticated',
      iss: `${site()}/auth/v1`,
      aal: 'aal1',
      is_anonymous: false,
    });
  });

  it('refuses forged, expired and foreign tokens on /user with bad_jwt', async () => {
    const address = await confirmedUser('forged');
    const sb = client();
    const { data } = await sb.auth.signInWithPassword({ email: address, password: PASSWORD });
    const good = data.session!.access_token;
    const other = await t.services.auth.createConfirmedUser(email('forged-other'), PASSWORD, 'Other');
    for (const [label, token] of Object.entries(await badTokens(db(), good, other))) {
      const res = await t.app.request('/auth/v1/user', {
        headers: { authorization: `Bearer ${token}`, 'x-supabase-api-version': '2024-01-01' },
      });
      // The contract: 400 for a sub that is no UUID, 403 for every other bad token.
      expect(res.status, label).toBe(label === 'sub not a uuid' ? 400 : 403);
      expect(await res.json(), label).toMatchObject({ code: 'bad_jwt' });
    }
    // Without the API-version header the legacy shape answers.
    const legacy = await t.app.request('/auth/v1/user', { headers: { authorization: 'Bearer garbage' } });
    expect(await legacy.json()).toMatchObject({ code: 403, error_code: 'bad_jwt' });
    const missing = await t.app.request('/auth/v1/user', { headers: { 'x-supabase-api-version': '2024-01-01' } });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ code: 'no_authorization', message: 'This endpoint requires a valid Bearer token' });
  });

  it('makes the display name from the sign-up’s metadata without bidirectional controls, on one line, at most 100 characters', async () => {
    const nameOf = async (address: string) => (await db().select().from(profiles).where(eq(profiles.email, address)))[0]?.name;
    const reversed = email('bidi-name');
    // U+202E would show "Ada" as "adA"; the isolates, marks and zero-width space show nothing and must not stay either.
    const signUp = await client().auth.signUp({
      email: reversed,
      password: PASSWORD,
      options: { data: { name: '\u202eAda\u200b\u2066\u200f Love\u2069lace\u202c\n' } },
    });
    expect(signUp.error).toBeNull();
    expect(await nameOf(reversed)).toBe('Ada Lovelace');
    // A sign-in link to a new address makes the account too.
    const linked = email('bidi-link');
    const link = await client().auth.signInWithOtp({ email: linked, options: { data: { name: `\u202d${'x'.repeat(150)}` } } });
    expect(link.error).toBeNull();
    expect(await nameOf(linked)).toBe('x'.repeat(100));
    const invisible = email('bidi-only');
    expect(
      (await client().auth.signUp({ email: invisible, password: PASSWORD, options: { data: { name: '\u202e\u200b' } } })).error,
    ).toBeNull();
    expect(await nameOf(invisible)).toBeNull();
  });

  it('updates the name and the password; a new password signs other devices out', async () => {
    const address = await confirmedUser('update');
    const laptop = client();
    const phone = client();
    const onLaptop = (await laptop.auth.signInWithPassword({ email: address, password: PASSWORD })).data.session!;
    const onPhone = (await phone.auth.signInWithPassword({ email: address, password: PASSWORD })).data.session!;
    await laptop.auth.setSession({ access_token: onLaptop.access_token, refresh_token: onLaptop.refresh_token });
    const renamed = await laptop.auth.updateUser({ data: { name: 'Ada Lovelace', language: 'fr' } });
    expect(renamed.error).toBeNull();
    expect(renamed.data.user!.user_metadata).toMatchObject({ name: 'Ada Lovelace', language: 'fr', email_verified: true });
    const same = await laptop.auth.updateUser({ password: PASSWORD });
    expect(same.error).toMatchObject({ status: 422, code: 'same_password' });
    const weak = await laptop.auth.updateUser({ password: 'short' });
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password' });
    expect((await laptop.auth.updateUser({ password: 'a brand new passphrase' })).error).toBeNull();
    expect((await phone.auth.getUser(onPhone.access_token)).error).toMatchObject({ name: 'AuthSessionMissingError' });
    expect((await laptop.auth.getUser(onLaptop.access_token)).error).toBeNull();
    expect((await client().auth.signInWithPassword({ email: address, password: PASSWORD })).error).toMatchObject({
      code: 'invalid_credentials',
    });
    expect((await client().auth.signInWithPassword({ email: address, password: 'a brand new passphrase' })).error).toBeNull();
  });

  it('signs out one device, the others, or all of them', async () => {
    const address = await confirmedUser('logout');
    const sessions = async () => {
      const [user] = await db().select().from(authUsers).where(eq(authUsers.email, address));
      return db().select().from(authSessions).where(eq(authSessions.userId, user!.id));
    };
    const signIn = async () => {
      const sb = client();
      const { data } = await sb.auth.signInWithPassword({ email: address, password: PASSWORD });
      await sb.auth.setSession(data.session!);
      return { sb, token: data.session!.access_token };
    };
    const confirmation = (await sessions()).length; // following the confirmation link signed in once
    const [a, b, c] = [await signIn(), await signIn(), await signIn()];
    expect(await sessions()).toHaveLength(confirmation + 3);
    expect((await a.sb.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect(await sessions()).toHaveLength(confirmation + 2);
    expect((await client().auth.getUser(a.token)).error).toMatchObject({ name: 'AuthSessionMissingError' });
    expect((await b.sb.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect((await client().auth.getUser(c.token)).error).toMatchObject({ name: 'AuthSessionMissingError' });
    expect((await client().auth.getUser(b.token)).error).toBeNull();
    const d = await signIn();
    expect((await d.sb.auth.signOut()).error).toBeNull();
    expect(await sessions()).toHaveLength(0);
    const badScope = await t.app.request('/auth/v1/logout?scope=everything', {
      method: 'POST',
      headers: { authorization: `Bearer ${b.token}` },
    });
    expect(badScope.status).toBe(400);
  });

  it('recovers a password by the mailed code, answering {} for unknown addresses alike', async () => {
    const address = await confirmedUser('recover');
    const sb = client();
    expect(await sb.auth.resetPasswordForEmail(email('nobody-recover'))).toEqual({ data: {}, error: null });
    expect(await sb.auth.resetPasswordForEmail(address)).toEqual({ data: {}, error: null });
    const mail = (await latestMail(address))!;
    expect(mail.template).toBe('auth-recovery');
    const wrong = await sb.auth.verifyOtp({
      email: address,
      token: '000000' === codeIn(mail.bodyText) ? '111111' : '000000',
      type: 'recovery',
    });
    expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired', message: 'Token has expired or is invalid' });
    const { data, error } = await sb.auth.verifyOtp({ email: address, token: codeIn(mail.bodyText), type: 'recovery' });
    expect(error).toBeNull();
    expect(decodeJwt(data.session!.access_token).amr).toEqual([{ method: 'recovery', timestamp: expect.any(Number) }]);
    await sb.auth.setSession(data.session!);
    expect((await sb.auth.updateUser({ password: 'recovered passphrase' })).error).toBeNull();
    expect((await client().auth.signInWithPassword({ email: address, password: 'recovered passphrase' })).error).toBeNull();
  });

  it('changes the email address only once both the old and the new address confirm', async () => {
    const address = await confirmedUser('mover');
    const moved = email('moved');
    const sb = client();
    const { data } = await sb.auth.signInWithPassword({ email: address, password: PASSWORD });
    await sb.auth.setSession(data.session!);
    const taken = await confirmedUser('taken-address');
    expect((await sb.auth.updateUser({ email: taken })).error).toMatchObject({ status: 422, code: 'email_exists' });
    const { data: pending, error } = await sb.auth.updateUser({ email: moved });
    expect(error).toBeNull();
    expect(pending.user).toMatchObject({ email: address, new_email: moved });
    const toOld = (await latestMail(address))!;
    const toNew = (await latestMail(moved))!;
    expect([toOld.template, toNew.template]).toEqual(['auth-email-change', 'auth-email-change']);
    // First link: accepted, nothing changes yet, no session.
    const first = await follow(linkIn(toOld.bodyText));
    expect(first.fragment.get('message')).toBe('Confirmation link accepted. Please proceed to confirm link sent to the other email');
    expect(first.fragment.get('access_token')).toBeNull();
    expect((await client().auth.signInWithPassword({ email: address, password: PASSWORD })).error).toBeNull();
    // Second link: the change is made and the visitor is signed in.
    const second = await follow(linkIn(toNew.bodyText));
    expect(second.fragment.get('access_token')).toBeTruthy();
    expect((await client().auth.signInWithPassword({ email: moved, password: PASSWORD })).error).toBeNull();
    expect((await client().auth.signInWithPassword({ email: address, password: PASSWORD })).error).toMatchObject({
      code: 'invalid_credentials',
    });
    const [user] = await db().select().from(authUsers).where(eq(authUsers.email, moved));
    expect(user).toMatchObject({ newEmail: null });
    expect((await db().select().from(profiles).where(eq(profiles.id, user!.id)))[0]?.email).toBe(moved);
  });

  it('keeps one account per address whatever its case, and answers unicode addresses with 4xx or an account, never 5xx', async () => {
    const address = await confirmedUser('casing');
    const users = (await db().select().from(authUsers)).length;
    const shouted = await client().auth.signUp({ email: address.toUpperCase(), password: 'another password' });
    expect(shouted.data.user!.identities).toEqual([]);
    expect((await db().select().from(authUsers)).length).toBe(users);
    for (const unicode of [`ünïcödé-${kind}@example.test`, `user-${kind}@exämple.test`, `\u202e-${kind}@example.test`]) {
      const res = await t.app.request('/auth/v1/signup', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.3.${ip}.1` },
        body: JSON.stringify({ email: unicode, password: PASSWORD }),
      });
      expect(res.status, unicode).toBeLessThan(500);
    }
  });

  it('rotates signing keys: new tokens name the new key, tokens of the old one stay valid until they expire', async () => {
    const address = await confirmedUser('rotation');
    const sb = client();
    const before = (await sb.auth.signInWithPassword({ email: address, password: PASSWORD })).data.session!.access_token;
    const oldKid = decodeProtectedHeader(before).kid;
    const newKid = await t.services.authKeys.rotate();
    expect(newKid).not.toBe(oldKid);
    const after = (await sb.auth.signInWithPassword({ email: address, password: PASSWORD })).data.session!.access_token;
    expect(decodeProtectedHeader(after).kid).toBe(newKid);
    const jwks = (await (await t.app.request('/auth/v1/.well-known/jwks.json')).json()) as JwksAnswer;
    expect(jwks.keys.map((k) => k.kid)).toEqual(expect.arrayContaining([oldKid, newKid]));
    for (const token of [before, after]) {
      expect((await sb.auth.getUser(token)).error).toBeNull();
      expect((await t.app.request('/api/users/me', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    }
  });

  it('refuses a mailed token used for another purpose', async () => {
    const address = await confirmedUser('purpose');
    await client().auth.resetPasswordForEmail(address);
    const recovery = new URL(linkIn((await latestMail(address))!.bodyText));
    for (const type of ['signup', 'magiclink', 'email_change']) {
      recovery.searchParams.set('type', type);
      expect((await follow(recovery.toString())).fragment.get('error_code'), type).toBe('otp_expired');
    }
    recovery.searchParams.set('type', 'recovery');
    expect((await follow(recovery.toString())).fragment.get('type')).toBe('recovery');
  });

  it('writes account mails in the language the member chose', async () => {
    const address = await confirmedUser('francais');
    const [user] = await db().select().from(authUsers).where(eq(authUsers.email, address));
    await t.services.users.updateMe({ id: user!.id, email: address, role: 'member', accessLevel: 'free' }, { language: 'fr' });
    await client().auth.resetPasswordForEmail(address);
    const mail = (await latestMail(address))!;
    expect(mail.subject).toBe('Réinitialisez votre mot de passe Beacon Growth');
    expect(mail.bodyHtml).toContain('<html lang="fr">');
  });

  it('signs in by an emailed link, and resends a confirmation only to an unconfirmed address', async () => {
    const address = await confirmedUser('magic');
    const sb = client();
    expect((await sb.auth.signInWithOtp({ email: address })).error).toBeNull();
    const mail = (await latestMail(address))!;
    expect(mail.template).toBe('auth-magic-link');
    const { fragment } = await follow(linkIn(mail.bodyText));
    expect(fragment.get('type')).toBe('magiclink');
    expect(fragment.get('access_token')).toBeTruthy();

    // An unknown address with shouldCreateUser false: the same answer, and no account or mail.
    const stranger = email('stranger');
    expect((await sb.auth.signInWithOtp({ email: stranger, options: { shouldCreateUser: false } })).error).toBeNull();
    expect(await db().select().from(authUsers).where(eq(authUsers.email, stranger))).toEqual([]);
    expect(await latestMail(stranger)).toBeUndefined();

    const pending = email('pending');
    await sb.auth.signUp({ email: pending, password: PASSWORD });
    const firstLink = linkIn((await latestMail(pending))!.bodyText);
    expect((await sb.auth.resend({ type: 'signup', email: pending })).error).toBeNull();
    const secondLink = linkIn((await latestMail(pending))!.bodyText);
    expect(secondLink).not.toBe(firstLink);
    // Only the latest link works.
    expect((await follow(firstLink)).fragment.get('error_code')).toBe('otp_expired');
    expect((await follow(secondLink)).fragment.get('access_token')).toBeTruthy();
    const count = (await db().select().from(emails).where(eq(emails.to, address))).length;
    expect((await sb.auth.resend({ type: 'signup', email: address })).error).toBeNull();
    expect(await db().select().from(emails).where(eq(emails.to, address))).toHaveLength(count);
  });

  it('keeps redirect_to on the allow-list: other sites fall back to the site URL', async () => {
    const address = email('redirect');
    const sb = client();
    await sb.auth.signUp({ email: address, password: PASSWORD, options: { emailRedirectTo: 'https://evil.example/steal' } });
    const link = new URL(linkIn((await latestMail(address))!.bodyText));
    expect(link.searchParams.get('redirect_to')).toBe(site());
    await sb.auth.resend({ type: 'signup', email: address, options: { emailRedirectTo: `${site()}/account?tab=profile` } });
    const own = new URL(linkIn((await latestMail(address))!.bodyText));
    expect(own.searchParams.get('redirect_to')).toBe(`${site()}/account?tab=profile`);
    const { location } = await follow(own.toString());
    expect(location.startsWith(`${site()}/account?tab=profile#access_token=`)).toBe(true);
  });

  it('answers malformed bodies, unknown endpoints and huge input with 4xx in the GoTrue shape, changing nothing', async () => {
    const users = (await db().select().from(authUsers)).length;
    const post = (path: string, body: string) =>
      t.app.request(`/auth/v1${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.1.0.${ip}` },
        body,
      });
    for (const [path, body] of [
      ['/signup', '{not json'],
      ['/signup', '[]'],
      ['/signup', JSON.stringify({ email: 42, password: PASSWORD })],
      ['/signup', JSON.stringify({ email: email('huge'), password: 'x'.repeat(5000) })],
      ['/token?grant_type=password', '{'],
      ['/token?grant_type=magic', '{}'],
      ['/token?grant_type=refresh_token', JSON.stringify({ refresh_token: 'short' })],
      ['/verify', JSON.stringify({ type: 'signup', token_hash: 'zz' })],
      ['/verify', JSON.stringify({ type: 'nonsense', token_hash: 'a'.repeat(56) })],
      ['/recover', '{}'],
      ['/factors', '{}'],
    ] as const) {
      const res = await post(path, body);
      expect(res.status, `${path} ${body.slice(0, 40)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${path} ${body.slice(0, 40)}`).toBeLessThan(500);
      expect(await res.json(), path).toMatchObject({ code: res.status, error_code: expect.any(String), msg: expect.any(String) });
    }
    const big = await post(
      '/signup',
      JSON.stringify({ email: email('big'), password: PASSWORD, data: { blob: 'x'.repeat(2 * 1024 * 1024) } }),
    );
    expect(big.status).toBe(413);
    expect((await db().select().from(authUsers)).length).toBe(users);
  });

  it('refuses control characters in every field of every auth write with 4xx, writing nothing', async () => {
    const address = await confirmedUser('controls');
    const users = (await db().select().from(authUsers)).length;
    const mails = (await db().select().from(emails)).length;
    const post = (path: string, body: unknown) =>
      t.app.request(`/auth/v1${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.2.${ip}.1` },
        body: JSON.stringify(body),
      });
    for (const bad of ['a\u0000b', 'x\u0007y', 'del\u007f']) {
      const cases: [string, unknown][] = [
        ['/signup', { email: `${bad}@example.test`, password: PASSWORD }],
        ['/signup', { email: email('ctl'), password: `${PASSWORD}${bad}` }],
        ['/signup', { email: email('ctl'), password: PASSWORD, data: { [bad]: 1 } }],
        ['/token?grant_type=password', { email: `${address}${bad}`, password: PASSWORD }],
        ['/token?grant_type=password', { email: address, password: `${PASSWORD}${bad}` }],
        ['/token?grant_type=refresh_token', { refresh_token: `${bad}${'a'.repeat(40)}` }],
        ['/recover', { email: `${bad}${address}` }],
        ['/resend', { type: 'signup', email: `${address}${bad}` }],
        ['/otp', { email: `${bad}${address}` }],
        ['/verify', { type: 'email', email: `${address}${bad}`, token: '123456' }],
        ['/verify', { type: 'signup', token_hash: `${bad}${'a'.repeat(50)}` }],
      ];
      for (const [path, body] of cases) {
        const res = await post(path, body);
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBeLessThan(500);
      }
    }
    expect((await db().select().from(authUsers)).length).toBe(users);
    expect((await db().select().from(emails)).length).toBe(mails);
  });

  it('answers a verify type it does not know as GoTrue does: a typed code is invalid, a token hash names the type', async () => {
    const address = await confirmedUser('odd-type');
    const sb = client();
    for (const to of [address, email('nobody-odd-type')]) {
      for (const type of ['sms', 'phone_change', ' ', 'bogus']) {
        const { error } = await sb.auth.verifyOtp({ email: to, token: '123456', type: type as 'email' });
        expect(error, `${to} ${type}`).toMatchObject({ status: 403, code: 'otp_expired', message: 'Token has expired or is invalid' });
      }
    }
    const hashed = await sb.auth.verifyOtp({ token_hash: 'a'.repeat(56), type: 'bogus' as 'email' });
    expect(hashed.error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Invalid email verification type' });
    // No type at all is GoTrue's first check, before any token is looked at.
    const none = await sb.auth.verifyOtp({ email: address, token: '123456', type: '' as 'email' });
    expect(none.error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Verify requires a verification type' });
  });

  it('limits requests per client address with over_request_rate_limit', async () => {
    const sb = client();
    let limited: unknown;
    for (let i = 0; i < 31 && !limited; i++) {
      const { error } = await sb.auth.resetPasswordForEmail(email(`limit${i}`));
      if (error) limited = error;
    }
    expect(limited).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    const used = await db()
      .select()
      .from(authUsers)
      .where(and(eq(authUsers.email, 'x')));
    expect(used).toEqual([]);
  });
});

describe('auth mail cooldowns', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', undefined, { AUTH_MAIL_COOLDOWN_SECONDS: '60', AUTH_BCRYPT_COST: '4' });
  });
  afterAll(() => t?.close());

  const post = async (path: string, body: unknown) => {
    const res = await t.app.request(`/auth/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.9.0.1' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { error_code?: string; msg?: string } };
  };
  /** The wait a cooldown refusal names, in seconds. */
  const waitOf = (msg: string | undefined) => Number(/after (\d+) seconds/.exec(msg ?? '')?.[1]);

  it('keeps a reset link and a sign-in link apart, each refusal naming its own wait', async () => {
    const address = 'cooldown@example.test';
    expect((await post('/signup', { email: address, password: PASSWORD })).status).toBe(200);
    // Confirmed, and a reset link asked for 40 seconds ago.
    await t.database.db
      .update(authUsers)
      .set({ emailConfirmedAt: new Date(), recoverySentAt: new Date(Date.now() - 40_000) })
      .where(eq(authUsers.email, address));

    // A sign-in link is not held back by the reset link (GoTrue's shared recovery_sent_at would).
    expect((await post('/otp', { email: address, create_user: false })).status).toBe(200);
    const again = await post('/otp', { email: address, create_user: false });
    expect(again).toMatchObject({ status: 429, body: { error_code: 'over_email_send_rate_limit' } });
    expect(waitOf(again.body.msg)).toBeGreaterThan(55);

    const reset = await post('/recover', { email: address });
    expect(reset).toMatchObject({ status: 429, body: { error_code: 'over_email_send_rate_limit' } });
    expect(waitOf(reset.body.msg)).toBeGreaterThanOrEqual(19);
    expect(waitOf(reset.body.msg)).toBeLessThanOrEqual(21);
    // Asking for a sign-in link did not move the reset link's clock.
    const [user] = await t.database.db.select().from(authUsers).where(eq(authUsers.email, address));
    expect(Date.now() - user!.recoverySentAt!.getTime()).toBeGreaterThanOrEqual(40_000);
  });
});

describe('auth rate limits from configuration (GoTrue’s RATE_LIMIT_* settings)', () => {
  const post = (t: TestApp, path: string, body: unknown, address: string) =>
    t.app.request(`/auth/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify(body),
    });
  async function statuses(count: number, send: () => Response | Promise<Response>): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < count; i += 1) out.push((await send()).status);
    return out;
  }

  it('counts each kind of request per client address up to its configured number', async () => {
    const t = await createTestApp('pglite', undefined, {
      AUTH_RATE_LIMIT_TOKEN_REFRESH: '4',
      AUTH_RATE_LIMIT_OTP: '3',
      AUTH_RATE_LIMIT_VERIFY: '2',
    });
    try {
      const refresh = () => post(t, '/token?grant_type=refresh_token', { refresh_token: 'not-a-real-refresh-token' }, '10.8.0.1');
      expect(await statuses(5, refresh)).toEqual([400, 400, 400, 400, 429]);
      const recover = () => post(t, '/recover', { email: 'limits@example.test' }, '10.8.0.1');
      expect(await statuses(4, recover)).toEqual([200, 200, 200, 429]);
      const verify = () => post(t, '/verify', { type: 'email', email: 'limits@example.test', token: '123456' }, '10.8.0.1');
      expect(await statuses(3, verify)).toEqual([403, 403, 429]);
      // Another address has its own counts.
      expect((await post(t, '/recover', { email: 'limits@example.test' }, '10.8.0.2')).status).toBe(200);
      // An IPv6 client counts as its /64 network: a new host half does not start a new count.
      const fromHost = (host: number) => post(t, '/recover', { email: 'limits@example.test' }, `2001:db8:8:1::${host}`);
      expect([(await fromHost(1)).status, (await fromHost(2)).status, (await fromHost(3)).status, (await fromHost(4)).status]).toEqual([
        200, 200, 200, 429,
      ]);
      expect((await post(t, '/recover', { email: 'limits@example.test' }, '2001:db8:8:2::1')).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('lets a conformance suite run from one address once the limits are raised', async () => {
    const raised = '100000';
    const t = await createTestApp('pglite', undefined, {
      AUTH_RATE_LIMIT_TOKEN_REFRESH: raised,
      AUTH_RATE_LIMIT_OTP: raised,
      AUTH_RATE_LIMIT_VERIFY: raised,
      AUTH_PASSWORD_TRIES_PER_ADDRESS: raised,
      AUTH_PASSWORD_TRIES_PER_ACCOUNT: raised,
      AUTH_AUTOCONFIRM: 'true',
      AUTH_BCRYPT_COST: '4',
    });
    try {
      const address = '10.8.1.1';
      const refresh = () => post(t, '/token?grant_type=refresh_token', { refresh_token: 'not-a-real-refresh-token' }, address);
      // One past each default (150, 30, 5) from the same address.
      expect(new Set(await statuses(151, refresh))).toEqual(new Set([400]));
      const verify = () => post(t, '/verify', { type: 'email', email: 'suite@example.test', token: '123456' }, address);
      expect(new Set(await statuses(31, verify))).toEqual(new Set([403]));
      expect((await post(t, '/signup', { email: 'suite@example.test', password: PASSWORD }, address)).status).toBe(200);
      const wrong = () => post(t, '/token?grant_type=password', { email: 'suite@example.test', password: 'not the password' }, address);
      expect(new Set(await statuses(6, wrong))).toEqual(new Set([400]));
      expect((await post(t, '/token?grant_type=password', { email: 'suite@example.test', password: PASSWORD }, address)).status).toBe(200);
    } finally {
      await t.close();
    }
    // Two hundred requests on the embedded database, on a machine shared with other suites.
  }, 120_000);
});
