/**
 * What the product needs from a hosted Supabase project beyond the browser's sign-in: whether a
 * token's session is still signed in (GET /auth/v1/user, as Supabase advises), and deleting an
 * account when its member asks (the admin API, with the service-role key, through supabase-js).
 */
import { AppError } from '../platform/errors.ts';

export async function hostedSessionIsLive(hosted: { url: string; anonKey: string }, token: string): Promise<boolean> {
  const res = await fetch(`${hosted.url}/auth/v1/user`, { headers: { authorization: `Bearer ${token}`, apikey: hosted.anonKey } });
  await res.body?.cancel();
  if (res.ok) return true;
  if (res.status >= 500) throw new AppError('unavailable', 'The sign-in service is not reachable. Please try again shortly.');
  return false;
}

/**
 * What the hosted project recorded about the account behind `token` (GET /auth/v1/user, read fresh
 * from its database): undefined when it no longer knows the user or the session. Proven: the
 * project recorded the address as confirmed (`email_confirmed_at`), never a claim in the token's
 * user_metadata, which members can write. `signup`: the sign-up's attribution as the browser wrote it
 * into user_metadata (the profile made from this record checks it).
 */
export async function hostedAccount(
  hosted: { url: string; anonKey: string },
  userId: string,
  token: string,
): Promise<{ email: string; proven: boolean; signup?: unknown } | undefined> {
  const res = await fetch(`${hosted.url}/auth/v1/user`, { headers: { authorization: `Bearer ${token}`, apikey: hosted.anonKey } });
  if (res.status >= 500) {
    await res.body?.cancel();
    throw new AppError('unavailable', 'The sign-in service is not reachable. Please try again shortly.');
  }
  if (!res.ok) {
    await res.body?.cancel();
    return undefined;
  }
  const user = (await res.json().catch(() => undefined)) as
    { id?: unknown; email?: unknown; email_confirmed_at?: unknown; user_metadata?: { signup?: unknown } | null } | undefined;
  if (!user || user.id !== userId || typeof user.email !== 'string') return undefined;
  const signup = user.user_metadata?.signup;
  return { email: user.email.toLowerCase(), proven: typeof user.email_confirmed_at === 'string', ...(signup ? { signup } : {}) };
}

export async function deleteHostedAccount(hosted: { url: string; serviceRoleKey?: string }, userId: string): Promise<void> {
  if (!hosted.serviceRoleKey) {
    throw new AppError(
      'unavailable',
      'Account deletion needs SUPABASE_SERVICE_ROLE_KEY on the server. Please contact us to delete your account.',
    );
  }
  // supabase-js (30 modules) is loaded for this rare call only, never at start.
  const { createClient } = await import('@supabase/supabase-js');
  const admin = createClient(hosted.url, hosted.serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const { error } = await admin.auth.admin.deleteUser(userId);
  if (error && error.status !== 404) throw error;
}
