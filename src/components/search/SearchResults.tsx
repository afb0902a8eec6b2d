/**
 * The site search's results (SiteSearch.tsx): the hint before a query, Searching…, the failed-load
 * alert, or the count, the results grouped by kind with the matched words marked, Show more, how
 * many more a higher level opens, and what to try when nothing matched.
 */
import { accessLabel } from '#shared/access.ts';
import { SEARCH_BEYOND_MAX, SEARCH_TYPE_LABELS } from '#shared/search.ts';
import { RetryAlert } from '../ui/RetryAlert.tsx';
import { groupResults, mergeResults } from './search-groups.ts';
import type { Asked, Ready, State } from './search-state.ts';
import { Snippet } from './Snippet.tsx';

type SearchResultsProps = { state: State; asked: Asked; onRetry: () => void; onMore: () => void };

/** The search's state: the hint before a query, Searching…, the failure, or the results by kind. */
export function SearchResults({ state, asked, onRetry, onMore }: SearchResultsProps) {
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
        <ResultGroup key={group.type} group={group} />
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
      {state.beyond && <BeyondLevel beyond={state.beyond} />}
      {state.membersFailed && (
        <p role="alert" className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-amber-900">
          Results from what your plan opens could not be loaded.{' '}
          <button type="button" onClick={onRetry} className="font-semibold underline">
            Try Again
          </button>
        </p>
      )}
      {count === 0 && !state.beyond && !state.membersFailed && <NoResultsHint />}
    </section>
  );
}

/** One kind's results, each a link with its snippet. */
function ResultGroup({ group }: { group: ReturnType<typeof groupResults>[number] }) {
  return (
    <section aria-labelledby={`results-${group.type}`}>
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
  );
}

/** How many more results a higher level opens, and the way to the plans. */
function BeyondLevel({ beyond }: { beyond: NonNullable<Ready['beyond']> }) {
  return (
    <p className="rounded-xl border border-brand-200 bg-brand-50 p-4 text-slate-800" data-testid="search-beyond">
      {beyond.count >= SEARCH_BEYOND_MAX ? `${SEARCH_BEYOND_MAX.toLocaleString('en-US')}+` : beyond.count} more{' '}
      {beyond.count === 1 ? 'result' : 'results'} in {accessLabel(beyond.level)}.{' '}
      <a href="/pricing" className="font-semibold text-brand-700 underline">
        See plans
      </a>
    </p>
  );
}

/** Nothing matched: fewer or other words, or the articles and services. */
function NoResultsHint() {
  return (
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
  );
}
