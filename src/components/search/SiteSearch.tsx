/**
 * /search (issue 36): one query across the site. Public text comes from the static index in the
 * browser (pagefind-client.ts: no request reaches the server); a signed-in member's gated text from
 * `GET /api/search`, which the server cuts at their level and which says how many more results a
 * higher level opens. Results are grouped by kind with the matched words marked, the query and kind
 * live in the address (`/search?q=…&type=…`) so a result page can be shared, and the list has the
 * four states of the other lists. Arrow keys move between the field and the results.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { accessLabel } from '#shared/access.ts';
import {
  SEARCH_BEYOND_MAX,
  SEARCH_QUERY_MAX,
  SEARCH_TYPE_LABELS,
  SEARCH_TYPES,
  isSearchType,
  type SearchAnswer,
  type SearchResult,
  type SearchType,
} from '#shared/search.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import { searchPublic, type PublicHits } from './pagefind-client.ts';
import { groupResults, mergeResults } from './search-groups.ts';
import { searchMembers } from './search-api.ts';
import { Snippet } from './Snippet.tsx';
import { RetryAlert } from '../ui/RetryAlert.tsx';

interface Asked {
  q: string;
  type: SearchType | undefined;
  /** Asking the same again runs again (Try Again). */
  n: number;
}

interface Ready {
  status: 'ready';
  hits: PublicHits;
  /** The public results read so far, and the member's. */
  shown: SearchResult[];
  members: SearchResult[];
  beyond: SearchAnswer['beyondLevel'];
  /** The member's part could not be read (the public results stand). */
  membersFailed: boolean;
  more: 'idle' | 'loading' | 'error';
}

type State = { status: 'idle' } | { status: 'loading' } | { status: 'error' } | Ready;

/** A query as the server takes it: no control characters, cut to the longest, never inside a surrogate pair (half of one is refused). */
function cut(q: string): string {
  // A pasted tab or line break is a space (the server refuses control characters).
  const text = q
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .trim()
    .slice(0, SEARCH_QUERY_MAX);
  return /[\ud800-\udbff]$/.test(text) ? text.slice(0, -1) : text;
}

function fromAddress(): Asked {
  const params = new URLSearchParams(window.location.search);
  const type = params.get('type');
  return { q: cut(params.get('q') ?? ''), type: isSearchType(type) ? type : undefined, n: 0 };
}

function keepInAddress({ q, type }: Asked, push: boolean) {
  const url = new URL(window.location.href);
  url.search = '';
  if (q) url.searchParams.set('q', q);
  if (type) url.searchParams.set('type', type);
  const next = `${url.pathname}${url.search}`;
  if (next === `${window.location.pathname}${window.location.search}`) return;
  if (push) history.pushState(null, '', next);
  else history.replaceState(null, '', next);
}

async function runSearch({ q, type }: Asked, signal: AbortSignal): Promise<State> {
  const [hits, members] = await Promise.all([searchPublic(q, type), searchMembers(q, type, signal)]);
  const shown = await hits.load(0);
  const answer = members.status === 'ok' ? members.answer : undefined;
  return {
    status: 'ready',
    hits,
    shown,
    members: answer?.results ?? [],
    beyond: answer?.beyondLevel,
    membersFailed: members.status === 'failed',
    more: 'idle',
  };
}

export default function SiteSearch() {
  const id = useId();
  // Rendered at build time with no query; the address is read once hydrated.
  const [asked, setAsked] = useState<Asked>({ q: '', type: undefined, n: 0 });
  const [typed, setTyped] = useState('');
  const [answer, setAnswer] = useState<{ asked: Asked; state: State } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const onBack = () => {
      const now = fromAddress();
      setAsked(now);
      setTyped(now.q);
    };
    onBack();
    window.addEventListener('popstate', onBack);
    return () => window.removeEventListener('popstate', onBack);
  }, []);

  useEffect(() => {
    if (!asked.q) return;
    const controller = new AbortController();
    runSearch(asked, controller.signal).then(
      (next) => !controller.signal.aborted && setAnswer({ asked, state: next }),
      () => !controller.signal.aborted && setAnswer({ asked, state: { status: 'error' } }),
    );
    return () => controller.abort();
  }, [asked]);
  const state: State = !asked.q ? { status: 'idle' } : answer?.asked === asked ? answer.state : { status: 'loading' };
  const setState = (update: (now: State) => State) => setAnswer((a) => (a && a.asked === asked ? { asked, state: update(a.state) } : a));

  async function more() {
    if (state.status !== 'ready') return;
    const before = state;
    setState((now) => (now.status === 'ready' ? { ...now, more: 'loading' } : now));
    const next = await before.hits.load(before.shown.length).catch(() => undefined);
    setState((now) =>
      now.status !== 'ready' || now.hits !== before.hits
        ? now
        : next
          ? { ...now, shown: [...now.shown, ...next], more: 'idle' }
          : { ...now, more: 'error' },
    );
  }

  function ask(next: Omit<Asked, 'n'>) {
    const q = cut(next.q);
    setAsked((a) => {
      const changed = q !== a.q || next.type !== a.type;
      keepInAddress({ ...next, q, n: 0 }, changed);
      return { q, type: next.type, n: a.n + 1 };
    });
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    ask({ q: typed, type: asked.type });
  }

  /** ArrowDown/ArrowUp walk the field and the result links; the Tab order stays the page's. */
  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const stops = [input.current, ...(list.current?.querySelectorAll<HTMLAnchorElement>('a[data-result]') ?? [])].filter(
      (el): el is HTMLInputElement | HTMLAnchorElement => Boolean(el),
    );
    const at = stops.indexOf(document.activeElement as HTMLInputElement | HTMLAnchorElement);
    if (at === -1) return;
    const next = stops[at + (e.key === 'ArrowDown' ? 1 : -1)];
    if (!next) return;
    e.preventDefault();
    next.focus();
  }

  return (
    <div className="flex flex-col gap-6" onKeyDown={onKeyDown}>
      <form role="search" onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <label htmlFor={`${id}-q`} className="block text-sm font-medium text-slate-700">
            Search the site
          </label>
          <input
            ref={input}
            id={`${id}-q`}
            type="search"
            name="q"
            value={typed}
            maxLength={SEARCH_QUERY_MAX}
            onChange={(e) => setTyped(e.target.value)}
            className={INPUT_CLASS}
            placeholder="e.g. pricing teardown, attribution, local SEO"
            autoComplete="off"
          />
        </div>
        <div>
          <label htmlFor={`${id}-type`} className="block text-sm font-medium text-slate-700">
            Kind
          </label>
          <select
            id={`${id}-type`}
            name="type"
            value={asked.type ?? ''}
            onChange={(e) => ask({ q: typed, type: isSearchType(e.target.value) ? e.target.value : undefined })}
            className={`${INPUT_CLASS} sm:w-44`}
          >
            <option value="">Everything</option>
            {SEARCH_TYPES.map((t) => (
              <option key={t} value={t}>
                {SEARCH_TYPE_LABELS[t]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="min-h-11 rounded-lg bg-brand-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-700">
          Search
        </button>
      </form>
      <div ref={list}>
        <Results state={state} asked={asked} onRetry={() => ask(asked)} onMore={() => void more()} />
      </div>
    </div>
  );
}

function Results({ state, asked, onRetry, onMore }: { state: State; asked: Asked; onRetry: () => void; onMore: () => void }) {
  if (state.status === 'idle')
    return (
      <p className="text-slate-600">
        Search articles, courses and their lessons, tools, the market, events, the newsletter and the community.
      </p>
    );
  if (state.status === 'loading')
    return (
      <p role="status" className="text-slate-600">
        Searching…
      </p>
    );
  if (state.status === 'error') return <RetryAlert onRetry={onRetry}>Search failed. Please try again.</RetryAlert>;
  const where = asked.type ? ` in ${SEARCH_TYPE_LABELS[asked.type]}` : '';
  const results = mergeResults(state.shown, state.members);
  // Pagefind's count, and the member's results it has not shown (an article found by title and body is one result).
  const count = state.hits.total + results.length - state.shown.length;
  const groups = groupResults(results);
  return (
    <section aria-label="Search results" className="flex flex-col gap-8">
      <p role="status" className="text-slate-600">
        {count === 0 ? `No results for “${asked.q}”${where}.` : `${count} ${count === 1 ? 'result' : 'results'} for “${asked.q}”${where}`}
      </p>
      {groups.map((group) => (
        <section key={group.type} aria-labelledby={`results-${group.type}`}>
          <h2 id={`results-${group.type}`} className="text-lg font-bold text-ink">
            {SEARCH_TYPE_LABELS[group.type]}
          </h2>
          <ol className="mt-3 flex flex-col gap-3">
            {group.results.map((result) => (
              <li key={result.url} className="rounded-xl border border-slate-200 bg-white p-4" data-testid="search-result">
                <a data-result href={result.url} className="font-semibold text-brand-700 hover:underline focus-visible:underline">
                  {result.title}
                </a>
                {result.status === 'unpublished' && <span className="ml-2 text-xs font-semibold text-amber-800">Unpublished</span>}
                <Snippet snippet={result.snippet} />
              </li>
            ))}
          </ol>
        </section>
      ))}
      {state.shown.length < state.hits.total && (
        <button
          type="button"
          onClick={onMore}
          disabled={state.more === 'loading'}
          className="min-h-11 self-center rounded-lg px-5 py-2.5 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50"
        >
          {state.more === 'loading' ? 'Loading…' : state.more === 'error' ? 'Try Again' : 'Show more results'}
        </button>
      )}
      {state.beyond && (
        <p className="rounded-xl border border-brand-200 bg-brand-50 p-4 text-slate-800" data-testid="search-beyond">
          {state.beyond.count >= SEARCH_BEYOND_MAX ? `${SEARCH_BEYOND_MAX.toLocaleString('en-US')}+` : state.beyond.count} more{' '}
          {state.beyond.count === 1 ? 'result' : 'results'} in {accessLabel(state.beyond.level)}.{' '}
          <a href="/pricing" className="font-semibold text-brand-700 underline">
            See plans
          </a>
        </p>
      )}
      {state.membersFailed && (
        <p role="alert" className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-amber-900">
          Results from what your plan opens could not be loaded.{' '}
          <button type="button" onClick={onRetry} className="font-semibold underline">
            Try Again
          </button>
        </p>
      )}
      {count === 0 && !state.beyond && !state.membersFailed && (
        <p className="text-slate-600">
          Try fewer or other words, or browse the{' '}
          <a href="/blog" className="font-semibold text-brand-700 underline">
            articles
          </a>{' '}
          and{' '}
          <a href="/services" className="font-semibold text-brand-700 underline">
            services
          </a>
          .
        </p>
      )}
    </section>
  );
}
