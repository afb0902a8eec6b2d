/**
 * Who is looking, as the gated islands need it: loading (always on the server and while a
 * server-rendered island hydrates, so the first render matches the server's), signed out, or signed
 * in with the level and role the server gives the session's token (`GET /api/users/me`), once known.
 * The session is the one the auth client stored (lib/browser/session.ts); signing in or out in another
 * tab, or a refreshed token, is picked up at once.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { AccessLevel, Viewer } from '#shared/access.ts';
import { fetchViewer, onSessionChange, storedSession } from '../../../lib/browser/api.ts';
import { itemAccess, type PricedItem } from '#shared/payments/purchasable.ts';

export type ViewerState =
  | { status: 'loading' }
  | { status: 'signed-out' }
  /** `viewer` is undefined while the level loads or when it could not be read: the server decides. */
  | { status: 'signed-in'; userId: string; viewer: NonNullable<Viewer> | undefined };

/** What the browser can tell before asking the server: 'unknown' means ask. */
export type AccessGuess = 'loading' | 'signed-out' | 'denied' | 'allowed' | 'unknown';

const subscribeNothing = () => () => undefined;

/** False on the server and during hydration, true afterwards. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  );
}

export function useViewer(): ViewerState {
  const hydrated = useHydrated();
  const session = useSyncExternalStore(onSessionChange, storedSession, () => null);
  const token = session?.accessToken;
  const userId = session?.userId;
  const [known, setKnown] = useState<{ userId: string; viewer: NonNullable<Viewer> } | null>(null);

  // Asked again with each new token, so a level changed by an admin shows after the next refresh.
  useEffect(() => {
    if (!token || !userId) return;
    const controller = new AbortController();
    fetchViewer(controller.signal)
      .then((result) => {
        const viewer = result.ok ? result.data.viewer : null;
        if (viewer) setKnown({ userId, viewer: { accessLevel: viewer.accessLevel, role: viewer.role } });
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [token, userId]);

  if (!hydrated) return { status: 'loading' };
  if (!session) return { status: 'signed-out' };
  return { status: 'signed-in', userId: session.userId, viewer: known?.userId === session.userId ? known.viewer : undefined };
}

/**
 * The access rule applied to what the browser knows (the server still has the last word): a level,
 * or an item that can carry a price, by the purchase rule (a priced free-level item opens by level
 * to staff only; its buyers are found apart, see payments/use-ownership.ts).
 */
export function guessAccess(state: ViewerState, required: AccessLevel | PricedItem): AccessGuess {
  if (state.status !== 'signed-in') return state.status;
  if (!state.viewer) return 'unknown';
  return itemAccess(state.viewer, typeof required === 'string' ? { accessLevel: required } : required).allowed ? 'allowed' : 'denied';
}
