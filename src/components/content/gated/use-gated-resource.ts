/**
 * Loads one gated resource for the current viewer and keeps it in step with the session: a gate at
 * once for visitors and for members whose profile is below the level, else the server's answer (its
 * 401 and 403 are gates too). It asks again when the member, their level or the key changes, but not
 * when the profile merely arrives while a load is under way. Answers are kept per member and key
 * (lesson media links expire, so for half an hour), so going back to a lesson does not ask again.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { effectiveLevel, type AccessLevel } from '#shared/access.ts';
import type { ApiResult } from '../../../lib/browser/api.ts';
import type { PricedItem } from '#shared/payments/purchasable.ts';
import { guessAccess, useViewer, type ViewerState } from './use-viewer.ts';

export type GatedState<T> =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'gate'; signedIn: boolean }
  | { status: 'ready'; data: T }
  | { status: 'not-found'; message: string }
  | { status: 'error'; message: string };

type Settled<T> = Exclude<GatedState<T>, { status: 'idle' | 'loading' }>;

/** An answer and the level the viewer had when it came ('?' while the profile was loading). */
interface Entry<T> {
  state: Settled<T>;
  level: string;
}

const KEEP_MS = 30 * 60_000;

function settle<T>(result: ApiResult<T>): Settled<T> {
  if (result.ok) return { status: 'ready', data: result.data };
  if (result.kind === 'signed-out' || result.kind === 'forbidden') return { status: 'gate', signedIn: result.kind === 'forbidden' };
  return { status: result.kind, message: result.message };
}

export interface GatedResourceOptions<T> {
  /** A level, or an item that can carry a price (the purchase rule). */
  required: AccessLevel | PricedItem;
  /** What to load; null loads nothing (state 'idle'). */
  resourceKey: string | null;
  load: (key: string, signal: AbortSignal) => Promise<ApiResult<T>>;
}

export function useGatedResource<T>({ required, resourceKey, load }: GatedResourceOptions<T>): {
  state: GatedState<T>;
  viewer: ViewerState;
  retry: () => void;
} {
  const viewer = useViewer();
  const guess = guessAccess(viewer, required);
  const userId = viewer.status === 'signed-in' ? viewer.userId : '';
  const level = viewer.status === 'signed-in' && viewer.viewer ? effectiveLevel(viewer.viewer) : '?';
  const [entries, setEntries] = useState<ReadonlyMap<string, Entry<T>>>(() => new Map());
  const id = `${userId}\n${resourceKey}`;
  const entry = entries.get(id);
  // A body stays good; a refusal or failure only for the level it was given to.
  const usable = entry && (entry.state.status === 'ready' || entry.level === level || entry.level === '?');
  const needed = resourceKey !== null && (guess === 'allowed' || guess === 'unknown') && !usable;

  const latest = useRef({ load, level });
  useEffect(() => {
    latest.current = { load, level };
  });

  useEffect(() => {
    if (!needed || resourceKey === null) return;
    const controller = new AbortController();
    const asked = latest.current;
    asked
      .load(resourceKey, controller.signal)
      .then((result) => {
        if (controller.signal.aborted) return;
        const state = settle(result);
        setEntries((m) => new Map(m).set(id, { state, level: asked.level }));
        if (state.status === 'ready') setTimeout(() => setEntries((m) => drop(m, id, state)), KEEP_MS);
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [needed, id, resourceKey]);

  const retry = useCallback(() => setEntries((m) => drop(m, id)), [id]);

  let state: GatedState<T>;
  if (guess === 'loading') state = { status: 'loading' };
  else if (resourceKey === null) state = { status: 'idle' };
  else if (guess === 'signed-out' || guess === 'denied') state = { status: 'gate', signedIn: guess === 'denied' };
  else state = usable ? entry.state : { status: 'loading' };
  return { state, viewer, retry };
}

/** The map without `id` (only while it still holds `state`, when given). */
function drop<T>(m: ReadonlyMap<string, Entry<T>>, id: string, state?: Settled<T>): ReadonlyMap<string, Entry<T>> {
  if (!m.has(id) || (state && m.get(id)?.state !== state)) return m;
  const copy = new Map(m);
  copy.delete(id);
  return copy;
}
