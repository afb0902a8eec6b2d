/**
 * List filtering shared by the list islands and their tests. Search is a case-insensitive substring
 * match on title or description; filters combine with AND. Courses and market items have no category
 * field in the spec, so their "category" is one of the item's tags (see functions/content/README.md).
 */
import type { PublicItem } from './registry.ts';

import type { ListFilterKind } from './content-type.ts';

export type { ListFilterKind } from './content-type.ts';

const PRICE_FILTERS = ['free', 'paid'] as const;
export type PriceFilter = (typeof PRICE_FILTERS)[number];

export interface ListFilters {
  q: string;
  tag: string;
  category: string;
  level: string;
  price: PriceFilter | '';
}

export const EMPTY_FILTERS: ListFilters = { q: '', tag: '', category: '', level: '', price: '' };

const QUERY_KEY: Record<ListFilterKind, keyof ListFilters> = {
  search: 'q',
  tag: 'tag',
  category: 'category',
  skillLevel: 'level',
  price: 'price',
};

const MAX_FILTER_LENGTH = 100;

/** Reads the filters a list supports from a URL query; unknown or oversized values are dropped. */
export function parseFilters(params: URLSearchParams, kinds: readonly ListFilterKind[]): ListFilters {
  const out: ListFilters = { ...EMPTY_FILTERS };
  for (const kind of kinds) {
    const key = QUERY_KEY[kind];
    const raw = (params.get(key) ?? '').slice(0, MAX_FILTER_LENGTH);
    if (key === 'price') out.price = (PRICE_FILTERS as readonly string[]).includes(raw) ? (raw as PriceFilter) : '';
    else out[key] = key === 'q' ? raw : raw.trim();
  }
  return out;
}

/** Writes the active filters back into a query string ('' when none), keeping other parameters. */
export function filtersToQuery(filters: ListFilters, base = new URLSearchParams()): string {
  const params = new URLSearchParams(base);
  for (const key of Object.keys(EMPTY_FILTERS) as (keyof ListFilters)[]) {
    const value = key === 'q' ? filters.q.trim() : filters[key];
    if (value) params.set(key, value);
    else params.delete(key);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function hasActiveFilters(filters: ListFilters): boolean {
  return Boolean(filters.q.trim() || filters.tag || filters.category || filters.level || filters.price);
}

/** Case-insensitive substring match on title or description; an empty query matches everything. */
function matchesSearch(item: Pick<PublicItem, 'title' | 'description'>, query: string): boolean {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return true;
  return item.title.toLocaleLowerCase().includes(needle) || item.description.toLocaleLowerCase().includes(needle);
}

function hasTag(item: PublicItem, tag: string): boolean {
  const wanted = tag.toLocaleLowerCase();
  return item.tags.some((t) => t.toLocaleLowerCase() === wanted);
}

/** Market price rule: missing or 0 is free, above 0 is paid. */
function isFree(item: { price?: number }): boolean {
  return item.price === undefined || item.price <= 0;
}

/** Items matching every active filter (AND). */
export function applyFilters<T extends PublicItem>(items: readonly T[], filters: ListFilters): T[] {
  return items.filter((item) => {
    if (!matchesSearch(item, filters.q)) return false;
    if (filters.tag && !hasTag(item, filters.tag)) return false;
    if (filters.category && !hasTag(item, filters.category)) return false;
    if (filters.level && !(item.type === 'course' && item.skillLevel === filters.level)) return false;
    if (filters.price) {
      if (item.type !== 'market') return false;
      if (filters.price === 'free' ? !isFree(item) : isFree(item)) return false;
    }
    return true;
  });
}

/** Distinct tags across items, most used first, then alphabetical: the tag and category options. */
export function tagOptions(items: readonly PublicItem[]): string[] {
  const counts = new Map<string, number>();
  for (const item of items) for (const tag of new Set(item.tags)) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([tag]) => tag);
}

/** Splits tags into the ones a card shows (at most `max`) and the count behind "+N more". */
export function tagOverflow(tags: readonly string[], max = 3): { shown: string[]; hidden: number } {
  return { shown: tags.slice(0, max), hidden: Math.max(0, tags.length - max) };
}

/** Toggle rule for filter chips: choosing the active value clears it. */
export function toggleValue(current: string, chosen: string): string {
  return current.toLocaleLowerCase() === chosen.toLocaleLowerCase() ? '' : chosen;
}
