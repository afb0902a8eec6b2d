/**
 * /search (issue 36): one query across the site. Public text comes from the static index in the
 * browser (pagefind-client.ts: no request reaches the server); a signed-in member's gated text from
 * `GET /api/search`, which the server cuts at their level and which says how many more results a
 * higher level opens. Results are grouped by kind with the matched words marked, the query and kind
 * live in the address (`/search?q=…&type=…`) so a result page can be shared, and the list has the
 * four states of the other lists. Arrow keys move between the field and the results.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type RefObject } from 'react';
import { SEARCH_QUERY_MAX, SEARCH_TYPE_LABELS, SEARCH_TYPES, isSearchType, type SearchType } from '#shared/search.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import { SearchResults } from './SearchResults.tsx';
import { cut, fromAddress, keepInAddress, runSearch, type Asked, type State } from './search-state.ts';

/** ArrowDown/ArrowUp walk the field and the result links; the Tab order stays the page's. */
function walk(e: KeyboardEvent<HTMLDivElement>, input: HTMLInputElement | null, list: HTMLDivElement | null) {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
  const stops = [input, ...(list?.querySelectorAll<HTMLAnchorElement>('a[data-result]') ?? [])].filter(
    (el): el is HTMLInputElement | HTMLAnchorElement => Boolean(el),
  );
  const at = stops.indexOf(document.activeElement as HTMLInputElement | HTMLAnchorElement);
  if (at === -1) return;
  const next = stops[at + (e.key === 'ArrowDown' ? 1 : -1)];
  if (!next) return;
  e.preventDefault();
  next.focus();
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

  return (
    <div className="flex flex-col gap-6" onKeyDown={(e) => walk(e, input.current, list.current)}>
      <SearchForm
        id={id}
        input={input}
        typed={typed}
        type={asked.type}
        onTyped={setTyped}
        onType={(type) => ask({ q: typed, type })}
        onSubmit={submit}
      />
      <div ref={list}>
        <SearchResults state={state} asked={asked} onRetry={() => ask(asked)} onMore={() => void more()} />
      </div>
    </div>
  );
}

type SearchFormProps = {
  id: string;
  input: RefObject<HTMLInputElement | null>;
  typed: string;
  type: SearchType | undefined;
  onTyped: (typed: string) => void;
  /** A new kind runs the search at once. */
  onType: (type: SearchType | undefined) => void;
  onSubmit: (e: FormEvent) => void;
};

/** The query, the kind to search in, and Search. */
function SearchForm({ id, input, typed, type, onTyped, onType, onSubmit }: SearchFormProps) {
  return (
    <form role="search" onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
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
          onChange={(e) => onTyped(e.target.value)}
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
          value={type ?? ''}
          onChange={(e) => onType(isSearchType(e.target.value) ? e.target.value : undefined)}
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
  );
}
