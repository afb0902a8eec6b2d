/**
 * Accounts of the embedded auth service: making one (sign-up with a password, a sign-in link to an
 * unknown address, a confirmed account the server vouches for), reading and updating the signed-in
 * user (metadata, password, the two-link email change), and what the product asks of an account
 * (its proven address, its deletion). Each new account tells the product in its own transaction.
 */
import { z } from 'zod';
import type { DbOrTx } from '../platform/db/client.ts';
import type { AuthContext } from './context.ts';
import { AuthError, mailCooldown, validation } from './errors.ts';
import type { Links } from './links.ts';
import type { Passwords } from './passwords.ts';
import { userJson } from './schema.ts';
import type { Sessions } from './sessions.ts';
import { createAuthStore } from './store.ts';
import { confirmedUser, insertAccount, lookAlikeUser, signInLinkMails } from './new-accounts.ts';

interface AccountParts {
  sessions: Pick<Sessions, 'openSession' | 'authenticate'>;
  links: Pick<Links, 'sendLink' | 'sendConfirmation'>;
  passwords: Pick<Passwords, 'checkNewPassword' | 'hash' | 'newPasswordHash'>;
}

/** What the parts of the accounts share: the auth context and the sibling parts they call. */
interface AccountDeps extends AccountParts {
  ctx: AuthContext;
}

/** Sign-up and sign-in links: the ways a visitor makes an account or asks to sign in. */
function signUps({ ctx, sessions, links, passwords }: AccountDeps) {
  const { db, store, settings, deps, callerData, emailOf, cooldown, allowedRedirect } = ctx;
  const { openSession } = sessions;
  const { sendLink, sendConfirmation } = links;
  return {
    /** POST /signup (contract 3.1). */
    async signUp(
      input: { email?: string | null; phone?: string | null; password?: string | null; data?: Record<string, unknown> | null },
      ip?: string,
      redirect?: string,
    ) {
      if (!input.email && !input.phone) throw new AuthError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
      await ctx.limit('otp', ip);
      const password = input.password ?? '';
      if (!password) throw validation('Signup requires a valid password');
      passwords.checkNewPassword(password);
      if (input.email && input.phone) throw validation('Only an email address or phone number should be provided on signup.');
      if (!input.email) throw new AuthError(400, 'phone_provider_disabled', 'Phone signups are disabled');
      const email = emailOf(input.email);
      const redirectTo = allowedRedirect(redirect);
      const data = callerData(input.data);

      const existing = await store.userByEmail(email);
      if (existing?.emailConfirmedAt) {
        if (settings.autoconfirm) throw new AuthError(422, 'user_already_exists', 'User already registered');
        return { kind: 'user' as const, user: lookAlikeUser(email, data) };
      }
      if (existing) {
        // Unconfirmed: the caller's identity is unproven, so nothing changes but a new confirmation mail.
        cooldown(existing.confirmationSentAt);
        return { kind: 'user' as const, user: userJson(await sendConfirmation(existing, redirectTo)) };
      }

      const passwordHash = await passwords.hash(password);
      return db.transaction(async (tx) => {
        const user = await insertAccount(ctx, tx, { email, passwordHash, confirmed: settings.autoconfirm }, data);
        if (!user) throw new AuthError(422, 'user_already_exists', 'User already registered');
        if (settings.autoconfirm) return { kind: 'session' as const, session: await openSession(tx, user, 'password') };
        await sendLink(tx, user, 'confirmation', redirectTo);
        return { kind: 'user' as const, user: userJson(user) };
      });
    },

    /** POST /otp: a sign-in link by email (unknown addresses: an account is made and confirmed by that link, unless create_user is false). */
    async sendSignInLink(
      input: { email?: string | null; create_user?: boolean | null; data?: Record<string, unknown> | null },
      ip?: string,
      redirect?: string,
    ): Promise<void> {
      await ctx.limit('otp', ip);
      const email = emailOf(input.email);
      const redirectTo = allowedRedirect(redirect);
      const user = await store.userByEmail(email);
      if (user) {
        if (user.emailConfirmedAt) {
          const sent = await deps.limiter.hit(signInLinkMails(settings), user.id);
          if (!sent.allowed) throw mailCooldown(sent.retryAfterSeconds);
          await db.transaction((tx) => sendLink(tx, user, 'magiclink', redirectTo));
          return;
        }
        // Not confirmed yet: the link confirms the address, so it shares the confirmation mail's cooldown.
        cooldown(user.confirmationSentAt);
        await sendConfirmation(user, redirectTo);
        return;
      }
      // GoTrue answers 422 here, which tells who has an account; we answer as for a known address.
      if (input.create_user === false) return;
      await db.transaction(async (tx) => {
        const user = await insertAccount(ctx, tx, { email, confirmed: false }, callerData(input.data));
        if (user) await sendLink(tx, user, 'confirmation', redirectTo);
      });
    },
  };
}

/** Accounts the server makes or reads for the product: confirmed ones, an import's, an account's record, its deletion. */
function serverAccounts({ ctx, passwords }: AccountDeps) {
  const { store, settings, emailOf } = ctx;
  return {
    /** Creates a confirmed account with a password unless the address has one; returns its id. */
    async createConfirmedUser(rawEmail: string, password: string, name: string): Promise<string> {
      passwords.checkNewPassword(password);
      return confirmedUser(ctx, rawEmail, name, () => passwords.hash(password));
    },

    /**
     * `createConfirmedUser` for accounts that share one password (the demo accounts, whose password is
     * public): it is hashed once for all of them, not once each (a hash is a tenth of a second of a core),
     * or not at all when its hash was made ahead (`passwordHash`, which must be the password's).
     */
    async createConfirmedUsers(
      accounts: readonly { email: string; name: string }[],
      password: string,
      passwordHash?: string,
    ): Promise<string[]> {
      passwords.checkNewPassword(password);
      let hashed: Promise<string> | undefined = passwordHash === undefined ? undefined : Promise.resolve(passwordHash);
      const ids: string[] = [];
      for (const { email, name } of accounts) ids.push(await confirmedUser(ctx, email, name, () => (hashed ??= passwords.hash(password))));
      return ids;
    },

    /**
     * Accounts for a members import, made in bulk inside the import's transaction: confirmed by no one
     * yet and without a password (the member signs in with a mailed link, which confirms the address).
     * The import makes the profiles itself, so no hook runs. Answers the new accounts' ids by address;
     * an address that has an account already is left out.
     */
    async importAccounts(tx: DbOrTx, list: readonly { email: string; name: string | null }[]): Promise<Map<string, string>> {
      const values = list.map(({ email, name }) => {
        const id = crypto.randomUUID();
        return {
          id,
          email: emailOf(email),
          userMetadata: { ...(name ? { name } : {}), sub: id, email: emailOf(email), email_verified: false, phone_verified: false },
        };
      });
      const made = await createAuthStore(tx).insertUsers(values);
      return new Map(made.map((u) => [u.email, u.id]));
    },

    /**
     * What this service recorded about an account, or undefined when it does not know it (deleted).
     * Proven: the address was confirmed through a mailed link, or the server made the account; with
     * AUTH_AUTOCONFIRM a confirmation proves nothing, so no address counts as proven.
     */
    async account(id: string): Promise<{ email: string; proven: boolean } | undefined> {
      if (!z.uuid().safeParse(id).success) return undefined;
      const user = await store.userById(id);
      return user ? { email: user.email, proven: Boolean(user.emailConfirmedAt) && !settings.autoconfirm } : undefined;
    },

    /** Deletes an account with its sessions and tokens (the member's own deletion). */
    async deleteUser(id: string): Promise<void> {
      await store.deleteUser(id);
    },
  };
}

/** The signed-in user: read, and updated (metadata, password, the email change). */
function signedInUser({ ctx, sessions, links, passwords }: AccountDeps) {
  const { db, store, deps, callerData, emailOf, cooldown, allowedRedirect } = ctx;
  const { authenticate } = sessions;
  const { sendLink } = links;
  return {
    /** GET /user (contract 3.4). */
    async getUser(authorization: string | undefined) {
      return userJson((await authenticate(authorization)).user);
    },

    /** PUT /user (contract 3.5): metadata, password, and the email change confirmed from both addresses. */
    async updateUser(
      authorization: string | undefined,
      input: {
        email?: string | null;
        phone?: string | null;
        password?: string | null;
        current_password?: string | null;
        nonce?: string | null;
        data?: Record<string, unknown> | null;
        app_metadata?: unknown;
      },
      ip?: string,
      redirect?: string,
    ) {
      const { user, claims } = await authenticate(authorization);
      await ctx.limit('otp', ip);
      if (input.app_metadata !== undefined) throw new AuthError(403, 'not_admin', 'Updating app_metadata requires admin privileges');
      if (input.phone) throw new AuthError(422, 'phone_provider_disabled', 'Phone logins are disabled');
      const newEmail = input.email ? emailOf(input.email) : undefined;
      const changingEmail = newEmail !== undefined && newEmail !== user.email;
      if (changingEmail) {
        const holder = await store.userByEmail(newEmail);
        if (holder) throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
        cooldown(user.emailChangeSentAt);
      }
      const patch: Parameters<typeof store.updateUser>[1] = {};
      if (input.data) {
        const metadata: Record<string, unknown> = { ...user.userMetadata };
        // The keys the service owns (sub, email, email_verified…) stay as it wrote them, as at sign-up.
        for (const [key, value] of Object.entries(callerData(input.data))) {
          if (value === null) delete metadata[key];
          else metadata[key] = value;
        }
        patch.userMetadata = metadata;
      }
      if (input.password) patch.passwordHash = await passwords.newPasswordHash(user, claims.session_id, input.password, input, ip);
      const updated = await db.transaction(async (tx) => {
        const txStore = createAuthStore(tx);
        if (changingEmail) {
          // Secure change: both the current and the new address must confirm before anything changes.
          Object.assign(patch, { newEmail, emailChangeSentAt: new Date() });
          await sendLink(tx, user, 'email_change_current', allowedRedirect(redirect), user.email);
          await sendLink(tx, user, 'email_change_new', allowedRedirect(redirect), newEmail);
        }
        const row = Object.keys(patch).length ? await txStore.updateUser(user.id, patch) : user;
        if (patch.passwordHash) {
          // A new password voids pending links and signs every other device out; the owner is told, with a way back in.
          await txStore.deleteOneTimeTokens(user.id);
          await txStore.deleteSessionsOf(user.id, claims.session_id);
          const language = await ctx.languageOf(tx, user.id);
          await deps.outbox.enqueue(tx, {
            to: user.email,
            template: 'auth-password-changed',
            data: { changedAt: new Date().toISOString(), language },
            userId: user.id,
          });
        }
        return row;
      });
      return userJson(updated);
    },
  };
}

export function createAccounts(ctx: AuthContext, { sessions, links, passwords }: AccountParts) {
  const deps: AccountDeps = { ctx, sessions, links, passwords };
  return { ...signUps(deps), ...serverAccounts(deps), ...signedInUser(deps) };
}

export type Accounts = ReturnType<typeof createAccounts>;
