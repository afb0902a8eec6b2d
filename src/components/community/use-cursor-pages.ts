/**
 * A list in keyset pages as the community's islands show it (a thread's posts, a category's
 * threads, an item's comments), loaded for the viewer. A public one arrives rendered by the server
 * (the visitor's first page); a signed-in member asks again with their token (their own held posts,
 * their likes, staff's marks), keeping the server's page on screen meanwhile. Any other starts
 * loading and ends as the list, a gate (401: sign in; 403: the level it needs), not found, or an
 * error with Retry. After a write the pages shown are read again, one more when the member was at
 * the end (their reply may start a new page).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AccessLevel } from '#shared/access.ts';
import type { ApiResult } from '../../lib/browser/api.ts';
import { useViewer, type ViewerState } from '../content/gated/use-viewer.ts';

/** An answer with a page of items and the cursor after it (null on the last page). */
export interface PageAnswer {
  nextCursor: string | null;
}

export type PagesState<T extends PageAnswer, I> =
  | { status: 'loading' }
  | { status: 'gate'; signedIn: boolean; level?: AccessLevel | undefined }
  | { status: 'not-found'; message: string }
  | { status: 'error'; message: string }
  /** `head`: the first page's answer (the thread, the category); `items` of every page shown. */
  | { status: 'ready'; head: T; items: I[]; cursors: (string | null)[]; nextCursor: string | null };

export type PagesLoad<T> = (cursor: string | null, signedIn: boolean, signal?: AbortSignal) => Promise<ApiResult<T>>;

function settle<T extends PageAnswer, I>(result: ApiResult<T>): PagesState<T, I> | undefined {
  if (result.ok) return undefined;
  if (result.kind === 'signed-out') return { status: 'gate', signedIn: false };
  if (result.kind === 'forbidden') return { status: 'gate', signedIn: true, level: result.requiredLevel };
  return { status: result.kind, message: result.message };
}

function ready<T extends PageAnswer, I>(answers: T[], cursors: (string | null)[], itemsOf: (answer: T) => I[]): PagesState<T, I> {
  const last = answers[answers.length - 1]!;
  return { status: 'ready', head: answers[0]!, items: answers.flatMap(itemsOf), cursors, nextCursor: last.nextCursor };
}

/** Who is reading ('loading' until the session is known): the server's answer depends on nothing else. */
function readerKey(viewer: ViewerState): string {
  return viewer.status === 'signed-in' ? viewer.userId : viewer.status;
}

export interface CursorPagesOptions<T extends PageAnswer, I> {
  /** What is shown (a thread's id, an item's address): a new key starts over. */
  key: string;
  /** Where the first page starts (a `?cursor=` link), null for the beginning. */
  firstCursor: string | null;
  /** The first page as the server rendered it for visitors (public threads only). */
  initial?: T | undefined;
  load: PagesLoad<T>;
  /** The items of one page (a module-level function: it must not change between renders). */
  itemsOf: (answer: T) => I[];
  /** Whether visitors may read it: when not, a visitor gets the sign-in gate without a request. */
  visitors?: boolean;
}

/** The list's state for the viewer, with the next page, a refresh after a write, an item's patch and a retry. */
export function useCursorPages<T extends PageAnswer, I extends { id: string }>({
  key,
  firstCursor,
  initial,
  load,
  itemsOf,
  visitors = true,
}: CursorPagesOptions<T, I>) {
  const viewer = useViewer();
  const reader = readerKey(viewer);
  const signedIn = viewer.status === 'signed-in';
  const [state, setState] = useState<PagesState<T, I>>(() => (initial ? ready([initial], [firstCursor], itemsOf) : { status: 'loading' }));
  const [more, setMore] = useState<'idle' | 'loading' | 'error'>('idle');
  const latest = useRef({ state, load, signedIn });
  useEffect(() => {
    latest.current = { state, load, signedIn };
  });

  /** Reads `count` pages from the first again (at least one), and replaces what is shown when they came. */
  const readPages = useCallback(
    async (count: number, signal?: AbortSignal) => {
      const { load: read, signedIn: withToken } = latest.current;
      const answers: T[] = [];
      const cursors: (string | null)[] = [];
      let cursor: string | null = firstCursor;
      do {
        const result = await read(cursor, withToken, signal);
        if (signal?.aborted) return;
        if (!result.ok) {
          // A failure after the first page keeps what came; a refusal of the first replaces everything.
          if (answers.length === 0) setState(settle<T, I>(result)!);
          break;
        }
        answers.push(result.data);
        cursors.push(cursor);
        cursor = result.data.nextCursor;
      } while (cursor && answers.length < count);
      if (answers.length) setState(ready(answers, cursors, itemsOf));
    },
    [firstCursor, itemsOf],
  );

  // The viewer's own view: asked again when who is reading changes (a visitor keeps the server's page).
  useEffect(() => {
    if (reader === 'loading' || (reader === 'signed-out' && (initial || !visitors))) return;
    const controller = new AbortController();
    readPages(1, controller.signal).catch(() => undefined); // aborted
    return () => controller.abort();
  }, [reader, key, initial, visitors, readPages]);

  /** The next page, appended. */
  const loadMore = useCallback(async () => {
    const current = latest.current.state;
    if (current.status !== 'ready' || !current.nextCursor) return;
    setMore('loading');
    const cursor = current.nextCursor;
    const result = await latest.current.load(cursor, latest.current.signedIn).catch(() => undefined);
    if (!result?.ok) return setMore('error');
    setMore('idle');
    setState((s) =>
      s.status === 'ready' && s.nextCursor === cursor
        ? { ...s, items: [...s.items, ...itemsOf(result.data)], cursors: [...s.cursors, cursor], nextCursor: result.data.nextCursor }
        : s,
    );
  }, [itemsOf]);

  /** After a write: the pages shown, read again (one more when `grow` and the end was shown). */
  const refresh = useCallback(
    async (grow = false) => {
      const current = latest.current.state;
      const shown = current.status === 'ready' ? current.cursors.length : 1;
      const atEnd = current.status === 'ready' && current.nextCursor === null;
      await readPages(shown + (grow && atEnd ? 1 : 0)).catch(() => undefined);
    },
    [readPages],
  );

  /** Changes one item in place (a like's answer). */
  const patchItem = useCallback((id: string, patch: Partial<I>) => {
    setState((s) => (s.status === 'ready' ? { ...s, items: s.items.map((p) => (p.id === id ? { ...p, ...patch } : p)) } : s));
  }, []);

  const retry = useCallback(() => {
    setState({ status: 'loading' });
    readPages(1).catch(() => undefined);
  }, [readPages]);

  const shown: PagesState<T, I> = reader === 'signed-out' && !visitors ? { status: 'gate', signedIn: false } : state;
  return { viewer, state: shown, more, loadMore, refresh, patchItem, retry };
}
