/**
 * Search on /community: full-text search (the server's, Postgres on both databases) over the
 * threads and posts of the categories the reader may read, asked with the member's token (visitors:
 * the categories anyone reads). The query is kept in the address (`?q=`), so a search can be shared
 * and survives a reload. Results are the thread's title, where, who and a plain-text excerpt (React
 * writes them as text), with the four states and "More results".
 */
import { useEffect, useId, useMemo, useState, useSyncExternalStore, type FormEvent } from 'react';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import { useViewer } from '../content/gated/use-viewer.ts';
import { searchCommunity, type SearchHit } from './community-api.ts';
import { PostTime } from './PostTime.tsx';
import { RetryAlert } from '../ui/RetryAlert.tsx';

type Results =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; q: string; items: SearchHit[]; nextCursor: string | null; more: 'idle' | 'loading' | 'error' };

/** A search asked for: its text and the how-many-th, so asking the same again runs again. */
type Asked = { q: string; n: number };

const subscribeNothing = () => () => undefined;
let loadedQuery: string | undefined;
/** The `?q=` the page was opened with ('' on the server and while hydrating). */
function useLinkedQuery(): string {
  return useSyncExternalStore(
    subscribeNothing,
    () => (loadedQuery ??= (new URLSearchParams(window.location.search).get('q') ?? '').trim()),
    () => '',
  );
}

function keepInAddress(q: string) {
  const url = new URL(window.location.href);
  if (q) url.searchParams.set('q', q);
  else url.searchParams.delete('q');
  history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

export default function CommunitySearch() {
  const id = useId();
  const viewer = useViewer();
  const linked = useLinkedQuery();
  const [typed, setTyped] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState<Asked | null>(null);
  const [answer, setAnswer] = useState<{ asked: Asked; results: Results } | null>(null);
  const signedIn = viewer.status === 'signed-in';
  // A search named in the address runs once the reader is known (their token widens it).
  const fromLink = useMemo(() => (linked ? { q: linked, n: 0 } : null), [linked]);
  const asked = submitted ?? fromLink;
  const known = viewer.status !== 'loading';
  const active = asked?.q && known ? asked : null;

  useEffect(() => {
    if (!active) return;
    const controller = new AbortController();
    searchCommunity(active.q, null, signedIn, controller.signal)
      .then((result) =>
        setAnswer({
          asked: active,
          results: result.ok
            ? { status: 'ready', q: active.q, items: result.data.items, nextCursor: result.data.nextCursor, more: 'idle' }
            : { status: 'error', message: 'message' in result ? result.message : 'Search failed. Please try again.' },
        }),
      )
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [active, signedIn]);

  const results: Results = !asked?.q ? { status: 'idle' } : answer?.asked === active ? answer.results : { status: 'loading' };

  async function more() {
    if (results.status !== 'ready' || !results.nextCursor || !active) return;
    const mine = active;
    setAnswer({ asked: mine, results: { ...results, more: 'loading' } });
    const result = await searchCommunity(results.q, results.nextCursor, signedIn).catch(() => undefined);
    setAnswer((a) =>
      a?.asked !== mine || a.results.status !== 'ready'
        ? a
        : {
            asked: mine,
            results: result?.ok
              ? { ...a.results, items: [...a.results.items, ...result.data.items], nextCursor: result.data.nextCursor, more: 'idle' }
              : { ...a.results, more: 'error' },
          },
    );
  }

  function ask(q: string) {
    keepInAddress(q);
    setSubmitted((s) => ({ q, n: (s?.n ?? 0) + 1 }));
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    ask((typed ?? linked).trim());
  }

  return (
    <div className="flex flex-col gap-4">
      <form role="search" onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1">
          <label htmlFor={id} className="block text-sm font-medium text-slate-700">
            Search the community
          </label>
          <input
            id={id}
            type="search"
            name="q"
            value={typed ?? linked}
            maxLength={200}
            onChange={(e) => setTyped(e.target.value)}
            className={INPUT_CLASS}
            placeholder="e.g. local SEO, pricing pages"
          />
        </div>
        <button type="submit" className="min-h-11 rounded-lg bg-brand-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-700">
          Search
        </button>
      </form>
      <SearchResults results={results} onRetry={() => ask(asked?.q ?? '')} onMore={() => void more()} />
    </div>
  );
}

function SearchResults({ results, onRetry, onMore }: { results: Results; onRetry: () => void; onMore: () => void }) {
  if (results.status === 'idle') return null;
  if (results.status === 'loading')
    return (
      <p role="status" className="text-sm text-slate-600">
        Searching…
      </p>
    );
  if (results.status === 'error')
    return (
      <RetryAlert onRetry={onRetry} className="text-sm">
        {results.message}
      </RetryAlert>
    );
  if (results.items.length === 0)
    return (
      <p role="status" className="rounded-xl border border-dashed border-slate-300 p-4 text-center text-slate-600">
        No posts match “{results.q}”.
      </p>
    );
  return (
    <section aria-label="Search results" className="flex flex-col gap-3">
      <p role="status" className="text-sm text-slate-500">
        Results for “{results.q}”
      </p>
      <ol className="flex flex-col gap-3">
        {results.items.map((hit) => (
          <li key={hit.postId} className="rounded-xl border border-slate-200 bg-white p-4" data-testid="search-hit">
            <a
              href={`/community/threads/${hit.threadId}${hit.isOpener ? '' : `#post-${hit.postId}`}`}
              className="font-semibold text-ink hover:text-brand-700 hover:underline"
            >
              {hit.title}
            </a>
            <p className="mt-1 text-sm text-slate-500">
              in {hit.category.name} · {hit.author?.name ?? 'Deleted member'} · <PostTime at={hit.createdAt} />
            </p>
            {hit.excerpt && <p className="mt-2 line-clamp-3 text-sm text-slate-700">{hit.excerpt}</p>}
          </li>
        ))}
      </ol>
      {results.nextCursor && (
        <button
          type="button"
          onClick={onMore}
          disabled={results.more === 'loading'}
          className="min-h-11 self-center rounded-lg px-5 py-2.5 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50"
        >
          {results.more === 'loading' ? 'Loading…' : results.more === 'error' ? 'Try Again' : 'More results'}
        </button>
      )}
    </section>
  );
}
