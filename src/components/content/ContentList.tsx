/**
 * List island for /blog, /courses, /tools and /market: loads the items from the public API (six
 * skeleton cards meanwhile), filters them in the browser, keeps the filters in the URL query, and
 * shows the spec's error and empty states with their exact texts. The type's facts and texts come
 * as a prop (`info`, plain data from the registry), so the island never bundles zod.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  applyFilters,
  filtersToQuery,
  hasActiveFilters,
  parseFilters,
  tagOptions,
  toggleValue,
  EMPTY_FILTERS,
  type ListFilters,
} from '#shared/content/filter.ts';
import { SKILL_LEVELS } from '#shared/content/constants.ts';
import type { ContentTypeInfo, PublicItem } from '#shared/content/registry.ts';
import { publicApi } from '../../lib/browser/api.ts';
import { ContentCard } from './ContentCard.tsx';
import { FilterBar } from './FilterBar.tsx';
import { SkeletonGrid } from './SkeletonGrid.tsx';

type LoadState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; items: PublicItem[] };

const PAGE_SIZE = 24;

function useItems({ apiSegment, listFailure }: ContentTypeInfo): LoadState {
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    publicApi.content[':segment']
      .$get(
        { param: { segment: apiSegment } },
        // Always ask (a 304 when unchanged): the answer allows stale-while-revalidate for shared caches,
        // which a browser may apply to itself, and a list must show an item created a moment ago.
        { init: { cache: 'no-cache', signal: controller.signal } },
      )
      .then(async (res) => {
        if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
        const items = await res.json();
        if (!Array.isArray(items)) throw new Error('Unexpected answer');
        setState({ status: 'ready', items });
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        console.error(listFailure, err);
        setState({ status: 'error' });
      });
    return () => controller.abort();
  }, [apiSegment, listFailure]);
  return state;
}

function useUrlFilters(kinds: ContentTypeInfo['filters']) {
  const [filters, setFilters] = useState<ListFilters>(() => parseFilters(new URLSearchParams(location.search), kinds));
  useEffect(() => {
    const query = filtersToQuery(filters, new URLSearchParams(location.search));
    const next = `${location.pathname}${query}${location.hash}`;
    if (next !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(history.state, '', next);
  }, [filters]);
  const update = useCallback((patch: Partial<ListFilters>) => setFilters((f) => ({ ...f, ...patch })), []);
  return { filters, update, clear: () => setFilters(EMPTY_FILTERS) };
}

const NO_ITEMS: PublicItem[] = [];

export default function ContentList({ info }: { info: ContentTypeInfo }) {
  const state = useItems(info);
  const { filters, update, clear } = useUrlFilters(info.filters);
  const items = state.status === 'ready' ? state.items : NO_ITEMS;
  const visible = useMemo(() => applyFilters(items, filters), [items, filters]);
  // Long lists render a page of cards at a time; a new filter starts again from the first page.
  const [paging, setPaging] = useState({ filters, shown: PAGE_SIZE });
  if (paging.filters !== filters) setPaging({ filters, shown: PAGE_SIZE });
  const shown = paging.filters === filters ? paging.shown : PAGE_SIZE;
  const tags = useMemo(() => tagOptions(items), [items]);
  const levels = useMemo(() => SKILL_LEVELS.filter((l) => items.some((i) => i.type === 'course' && i.skillLevel === l)), [items]);
  // Card tags drive the list's tag-like filter: "tag" on the blog, "category" on courses and market.
  const tagKey = info.filters.includes('tag') ? 'tag' : info.filters.includes('category') ? 'category' : undefined;
  const onTagSelect = tagKey ? (tag: string) => update({ [tagKey]: toggleValue(filters[tagKey], tag) }) : undefined;

  if (state.status === 'error') return <LoadFailed message={info.loadError} />;

  const filtered = hasActiveFilters(filters);
  return (
    <div className="flex flex-col gap-6">
      {info.filters.length > 0 && (
        <FilterBar
          kinds={info.filters}
          filters={filters}
          tags={tags}
          levels={levels}
          searchPlaceholder={info.searchPlaceholder}
          onChange={update}
        />
      )}
      {state.status === 'loading' ? (
        <SkeletonGrid />
      ) : visible.length === 0 ? (
        <NoMatches text={filtered ? info.emptyFiltered : info.emptyAll} onClear={filtered ? clear : undefined} />
      ) : (
        <>
          <p className="sr-only" role="status">
            {visible.length} of {items.length} match
          </p>
          <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {visible.slice(0, shown).map((item) => (
              <ContentCard
                key={item.id}
                item={item}
                href={`${info.path}/${item.slug}`}
                activeTag={tagKey ? filters[tagKey] : undefined}
                onTagSelect={onTagSelect}
              />
            ))}
          </div>
          {visible.length > shown && (
            <ShowMore shown={shown} total={visible.length} onMore={() => setPaging((p) => ({ ...p, shown: p.shown + PAGE_SIZE }))} />
          )}
        </>
      )}
    </div>
  );
}

/** The list could not be loaded: the type's message, and Try Again (a reload). */
function LoadFailed({ message }: { message: string }) {
  return (
    <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-8 text-center">
      <p className="font-medium text-red-800">{message}</p>
      <button
        type="button"
        onClick={() => location.reload()}
        className="mt-4 rounded-lg bg-red-600 px-4 py-2 text-sm font-semibold text-white hover:bg-red-700"
      >
        Try Again
      </button>
    </div>
  );
}

/** No item to show: the type's empty text, and Clear Filters when filters hide them (`onClear`). */
function NoMatches({ text, onClear }: { text: string; onClear: (() => void) | undefined }) {
  return (
    <div role="status" className="rounded-2xl border border-dashed border-slate-300 p-10 text-center">
      <p className="text-slate-600">{text}</p>
      {onClear && (
        <button
          type="button"
          onClick={onClear}
          className="mt-4 rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
        >
          Clear Filters
        </button>
      )}
    </div>
  );
}

/** How many cards are shown of how many match, and the next page's button. */
function ShowMore({ shown, total, onMore }: { shown: number; total: number; onMore: () => void }) {
  return (
    <div className="flex flex-col items-center gap-2">
      <p className="text-sm text-slate-500">
        Showing {shown} of {total}
      </p>
      <button
        type="button"
        onClick={onMore}
        className="rounded-lg px-5 py-2.5 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50"
      >
        Show more
      </button>
    </div>
  );
}
