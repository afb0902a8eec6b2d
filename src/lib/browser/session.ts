/**
 * The signed-in session as the auth client (supabase-js) keeps it in localStorage, read without
 * loading that client: the one reader of its private storage format (`sb-…-auth-token`). The API
 * module (api.ts) takes the bearer token from it and re-exports it; the site header reads it alone,
 * so every page's shell script stays free of the API clients. Browser only.
 */

/** The signed-in session as stored by the auth client. */
export interface StoredSession {
  /** The localStorage key it is stored under (removed on a local sign-out). */
  key: string;
  accessToken: string;
  /** Seconds since the epoch, when known. */
  expiresAt: number | undefined;
  userId: string;
}

const SESSION_KEY = /^sb-.+-auth-token$/;
/** Dispatched on window when this tab changed the stored session (signed in or out, or refreshed it). */
export const SESSION_EVENT = 'beacon:session';
let lastRaw: string | null | undefined;
let lastSession: StoredSession | null = null;

function parseSession(key: string, raw: string | null): StoredSession | null {
  try {
    const value = raw ? (JSON.parse(raw) as { access_token?: unknown; expires_at?: unknown; user?: { id?: unknown } } | null) : null;
    if (typeof value?.access_token !== 'string' || typeof value.user?.id !== 'string') return null;
    return {
      key,
      accessToken: value.access_token,
      expiresAt: typeof value.expires_at === 'number' ? value.expires_at : undefined,
      userId: value.user.id,
    };
  } catch {
    return null;
  }
}

/** The stored session, or null when signed out. The same object while it is unchanged (a store snapshot). */
export function storedSession(): StoredSession | null {
  let key: string | undefined;
  let raw: string | null = null;
  try {
    key = Object.keys(localStorage).find((k) => SESSION_KEY.test(k));
    raw = key ? localStorage.getItem(key) : null;
  } catch {
    raw = null; // storage disabled: nobody is signed in here
  }
  if (raw !== lastRaw) {
    lastRaw = raw;
    lastSession = key ? parseSession(key, raw) : null;
  }
  return lastSession;
}

/** Calls `listener` when the stored session may have changed (another tab, or a refresh here). */
export function onSessionChange(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || SESSION_KEY.test(event.key)) listener();
  };
  window.addEventListener('storage', onStorage);
  window.addEventListener(SESSION_EVENT, listener);
  return () => {
    window.removeEventListener('storage', onStorage);
    window.removeEventListener(SESSION_EVENT, listener);
  };
}
