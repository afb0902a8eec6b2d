/**
 * The Content tab's full-text search (issue 36, item 5): the words of every article and lesson, both
 * sources, unpublished database items included and marked, through `GET /api/search?drafts=1` (staff
 * only). The snippet is escaped text with `<mark>` tags; it is rendered as text nodes and `<mark>`
 * elements (snippetParts), never as HTML.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { SEARCH_LIMIT_MAX, SEARCH_QUERY_MAX, snippetParts, type SearchType } from '#shared/search.ts';
import { api, call, type ApiData } from '../../lib/browser/api.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';

type Result = ApiData<typeof api.search.index.$get>['results'][number];
type State = { kind: 'idle' } | { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'done'; q: string; results: Result[] };

const KIND: Partial<Record<SearchType, string>> = { blog: 'Article', course: 'Lesson', community: 'Community', newsletter: 'Newsletter' };

function Snippet({ text }: { text: string }) {
  return (
    <p className="mt-1 text-sm text-slate-600">
      {snippetParts(text).map((part, i) => (part.marked ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
    </p>
  );
}

export function ContentSearch() {
  const [q, setQ] = useState('');
  const [state, setState] = useState<State>({ kind: 'idle' });
  const controller = useRef<AbortController | null>(null);
  const ids = useId();

  async function search(event: FormEvent) {
    event.preventDefault();
    const query = q.trim();
    if (!query) return;
    controller.current?.abort();
    const mine = (controller.current = new AbortController());
    setState({ kind: 'loading' });
    try {
      const result = await call((o) => api.search.index.$get({ query: { q: query, drafts: '1', limit: String(SEARCH_LIMIT_MAX) } }, o), {
        signal: mine.signal,
      });
      if (result.ok) setState({ kind: 'done', q: query, results: result.data.results });
      else setState({ kind: 'error', message: result.kind === 'error' ? result.message : 'The search could not be run.' });
    } catch {
      // aborted by a newer search
    }
  }

  return (
    <section aria-labelledby={`${ids}-title`} className="space-y-3 rounded-2xl bg-white p-5 ring-1 ring-slate-200">
      <h2 id={`${ids}-title`} className="text-lg font-semibold text-slate-900">
        Search the text
      </h2>
      <form role="search" onSubmit={(e) => void search(e)} className="flex flex-wrap items-end gap-3">
        <div className="min-w-64 flex-1">
          <label htmlFor={`${ids}-q`} className="block text-sm font-medium text-slate-700">
            Words in articles, lessons, newsletter issues and member threads (drafts included)
          </label>
          <input
            id={`${ids}-q`}
            type="search"
            maxLength={SEARCH_QUERY_MAX}
            className={INPUT_CLASS}
            value={q}
            onChange={(e) => setQ(e.target.value)}
          />
        </div>
        <button type="submit" className="min-h-10 rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700">
          Search
        </button>
      </form>
      {state.kind === 'loading' && (
        <p role="status" className="text-sm text-slate-600">
          Searching...
        </p>
      )}
      {state.kind === 'error' && (
        <p role="alert" className="text-sm text-red-700">
          {state.message}
        </p>
      )}
      {state.kind === 'done' && <SearchResults q={state.q} results={state.results} />}
    </section>
  );
}

/** A finished search: how many matched, then each match with its kind and snippet. */
function SearchResults({ q, results }: { q: string; results: Result[] }) {
  return (
    <>
      <p role="status" className="text-sm text-slate-600">
        {results.length === 0
          ? `Nothing matches "${q}".`
          : `${results.length === 1 ? '1 match' : `${results.length} matches`} for "${q}", best first.`}
      </p>
      <ul className="divide-y divide-slate-200" aria-label="Search results">
        {results.map((r) => (
          <li key={`${r.type}-${r.url}`} className="py-3">
            {r.status === 'unpublished' ? (
              <span className="font-semibold text-slate-900">
                {r.title}{' '}
                <span className="ml-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-800">Unpublished</span>
              </span>
            ) : (
              <a href={r.url} className="font-semibold text-slate-900 hover:underline">
                {r.title}
              </a>
            )}
            <span className="ml-2 text-xs text-slate-500">{KIND[r.type] ?? r.type}</span>
            <Snippet text={r.snippet} />
          </li>
        ))}
      </ul>
    </>
  );
}
