/**
 * The browser's one auth client (supabase-js) and the session stores every island shares. It talks
 * to the embedded auth service on our own origin, or to a hosted Supabase project when the build
 * names one (PUBLIC_SUPABASE_URL, PUBLIC_SUPABASE_ANON_KEY). Browser only: imported by islands.
 */
import { createClient, type Session, type SupabaseClient } from '@supabase/supabase-js';
import { atom } from 'nanostores';
import { localPath } from '#shared/redirect.ts';
import { SESSION_EVENT } from '../session.ts';
import { removeStored, STORAGE_KEYS, writeStored } from '../storage-keys.ts';
import { PROFILE_CHANGED_EVENT } from './profile-events.ts';
import { fetchProfile, type Profile } from './profile-api.ts';
import { AUTH_PUBLIC_KEY, AUTH_ENDPOINT } from './endpoint.ts';

export type { Profile };

export type AuthState =
  | { status: 'loading' }
  | { status: 'signed-out' }
  /** `profile` is undefined while it loads and null when it could not be read. */
  | { status: 'signed-in'; session: Session; profile: Profile | null | undefined };

/** The session as the islands see it: loading until supabase-js has read its storage. */
export const $auth = atom<AuthState>({ status: 'loading' });

let client: SupabaseClient | undefined;

/** The signed-in user's profile, by email (spec point 4: reloaded when the user changes). */
async function loadProfile(session: Session): Promise<Profile | null> {
  const email = encodeURIComponent(session.user.email ?? '');
  const result = await fetchProfile(email, session.access_token);
  if (!result.ok) return null;
  writeStored(STORAGE_KEYS.accessLevel, result.data.accessLevel);
  writeStored(STORAGE_KEYS.hasPlan, String(result.data.customerId != null));
  return result.data;
}

/** The shared client; the first call starts listening to auth events. */
export function authClient(): SupabaseClient {
  if (client) return client;
  client = createClient(AUTH_ENDPOINT || window.location.origin, AUTH_PUBLIC_KEY, {
    auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true, flowType: 'implicit' },
  });
  let userId: string | undefined;
  window.addEventListener(PROFILE_CHANGED_EVENT, () => void refreshProfile());
  client.auth.onAuthStateChange((_event, session) => {
    // The stored session changed in this tab (no storage event here): the site header and the gated
    // islands, which read it without this client, look again.
    window.dispatchEvent(new Event(SESSION_EVENT));
    if (!session) {
      userId = undefined;
      removeStored(STORAGE_KEYS.accessLevel); // spec point 3: gone on sign-out
      removeStored(STORAGE_KEYS.hasPlan);
      $auth.set({ status: 'signed-out' });
      return;
    }
    const current = $auth.get();
    const sameUser = session.user.id === userId && current.status === 'signed-in';
    userId = session.user.id;
    $auth.set({ status: 'signed-in', session, profile: sameUser ? current.profile : undefined });
    // Outside the callback: supabase-js must not be awaited from inside its own event handler.
    if (!sameUser)
      setTimeout(
        () =>
          void loadProfile(session).then((profile) => {
            const now = $auth.get();
            if (now.status === 'signed-in' && now.session.user.id === session.user.id) $auth.set({ ...now, profile });
          }),
        0,
      );
  });
  return client;
}

/**
 * Starts the shared client in a task of its own, after the caller's mount: its set-up and first
 * session read, and the render the session then causes, would otherwise lengthen the mount's task
 * (together a long task on a slow phone). Answers the cancel, for an effect's clean-up.
 */
export function startAuthClient(): () => void {
  const timer = setTimeout(authClient, 0);
  return () => clearTimeout(timer);
}

/**
 * Reads the signed-in member's profile again (after a payment or a cancellation changed their level
 * or customer id); the store keeps the old one until the new one arrives, and keeps it if that fails.
 */
export async function refreshProfile(): Promise<void> {
  const before = $auth.get();
  if (before.status !== 'signed-in') return;
  const profile = await loadProfile(before.session);
  const now = $auth.get();
  if (profile && now.status === 'signed-in' && now.session.user.id === profile.id) $auth.set({ ...now, profile });
}

/** Puts a profile the server just answered with into the session store (after a save). */
export function setProfile(profile: Profile): void {
  const now = $auth.get();
  if (now.status === 'signed-in' && now.session.user.id === profile.id) $auth.set({ ...now, profile });
}

/** Where to go after signing in: a safe local `redirect` parameter, else the home page. */
export function afterSignIn(search: string): string {
  return localPath(new URLSearchParams(search).get('redirect')) ?? '/';
}
