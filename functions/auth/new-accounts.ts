/**
 * How the embedded auth service makes an account: the insert with GoTrue's metadata that tells the
 * product in the same transaction, the server's confirmed accounts, the look-alike answer to a
 * sign-up of a confirmed address, and the sign-in link's cooldown (functions/auth/accounts.ts).
 */
import type { DbOrTx } from '../platform/db/client.ts';
import type { AuthContext } from './context.ts';
import { createAuthStore } from './store.ts';
import type { AuthUserRow } from './tables.ts';

/**
 * One sign-in link per user per cooldown, counted apart from reset links: GoTrue stamps both on
 * `recovery_sent_at`, so asking for a sign-in link right after a reset was refused with the reset's wait.
 */
export const signInLinkMails = (settings: AuthContext['settings']) => ({
  name: 'auth-sign-in-link-mail',
  max: 1,
  windowSeconds: settings.mailCooldownSeconds,
});

/**
 * Inserts an account in `tx` with GoTrue's metadata and tells the product (its profile); undefined
 * when the address was taken meanwhile. `confirmed`: no confirmation mail is needed; `proven`: the
 * server itself vouches for the address (demo and staff-made accounts).
 */
export async function insertAccount(
  { hooks }: AuthContext,
  tx: DbOrTx,
  {
    email,
    passwordHash = null,
    confirmed,
    proven = false,
  }: { email: string; passwordHash?: string | null; confirmed: boolean; proven?: boolean },
  data: Record<string, unknown>,
): Promise<AuthUserRow | undefined> {
  const txStore = createAuthStore(tx);
  const now = new Date();
  const created = await txStore.insertUser({
    email,
    passwordHash,
    emailConfirmedAt: confirmed ? now : null,
    confirmationSentAt: confirmed ? null : now,
  });
  if (!created) return undefined;
  const user = await txStore.updateUser(created.id, {
    userMetadata: { ...data, sub: created.id, email, email_verified: confirmed, phone_verified: false },
  });
  const name = typeof data.name === 'string' ? data.name : undefined;
  const signup = data.signup;
  await hooks.onUserCreated?.(tx, { id: user.id, email, verified: proven, ...(name ? { name } : {}), ...(signup ? { signup } : {}) });
  return user;
}

/** A confirmed account made by the server, unless the address has one (then its id); hashes only when it makes one. */
export async function confirmedUser(ctx: AuthContext, rawEmail: string, name: string, hash: () => Promise<string>): Promise<string> {
  const { db, store, emailOf } = ctx;
  const email = emailOf(rawEmail);
  const existing = await store.userByEmail(email);
  if (existing) return existing.id;
  const passwordHash = await hash();
  return db.transaction(async (tx) => {
    const user = await insertAccount(ctx, tx, { email, passwordHash, confirmed: true, proven: true }, { name });
    return user?.id ?? (await createAuthStore(tx).userByEmail(email))!.id;
  });
}

/** GoTrue's look-alike answer for a sign-up to a confirmed address: no mail, so nothing is revealed (contract 3.1, outcome 4). */
export function lookAlikeUser(email: string, data: Record<string, unknown>) {
  const now = new Date().toISOString();
  return {
    id: crypto.randomUUID(),
    aud: 'authenticated',
    role: '',
    email,
    phone: '',
    confirmation_sent_at: now,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: data,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}
