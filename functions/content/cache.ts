/**
 * In-memory cache of the public content answers (items, serialised JSON, ETag and compressed bytes),
 * dropped on every content write: local writes clear it at once, other instances' writes arrive as
 * Postgres notifications. Concurrent misses share one load. A list whose order moves with the clock
 * (events: upcoming first, and an event that ends moves to the past) is kept only until the next
 * such move (`expiresAt`), then loaded again.
 */
import { listOrderChangesAt, toPublicItem, type ContentType, type PublicItemOf } from '#shared/content/registry.ts';
import type { PublicContentReader } from '#shared/content/reader.ts';
import { createAnswer, type CachedAnswer } from '../platform/http/respond.ts';
import { createPublicProjection } from './public.ts';
import type { RenderBody } from './body.ts';
import type { ContentService } from './service.ts';

const MAX_DETAIL_ENTRIES = 5000;

interface Entry<V> {
  value: V;
  answer: CachedAnswer;
  /** When the answer goes out of date by itself (ms since the epoch); never when absent. */
  expiresAt?: number;
}

/** Whether an entry still holds at `now`. */
export const isCurrent = (entry: { expiresAt?: number }, now = Date.now()) => entry.expiresAt === undefined || now < entry.expiresAt;

/** One shared load per key: concurrent misses wait on the same promise; failures and misses are not kept. */
export function remember<K, V>(map: Map<K, Promise<V>>, key: K, load: () => Promise<V>): Promise<V> {
  const hit = map.get(key);
  if (hit) return hit;
  const pending = load().then(
    (value) => {
      if (value === undefined && map.get(key) === pending) map.delete(key);
      return value;
    },
    (err: unknown) => {
      if (map.get(key) === pending) map.delete(key);
      throw err;
    },
  );
  map.set(key, pending);
  return pending;
}

export interface PublicContentCacheOptions {
  /** Renders an article's preview and an event's description (the server's staff renderer). */
  render: RenderBody;
  /** Cache-Control of every answer (sharedCacheControl of the configured staleness bound). */
  cacheControl?: string;
}

export function createPublicContentCache(service: ContentService, { render, cacheControl }: PublicContentCacheOptions) {
  const options = cacheControl ? { cacheControl } : {};
  const publicItem = createPublicProjection(render);
  const lists = new Map<ContentType, Promise<Entry<unknown[]>>>();
  let clears = 0;
  const details = new Map<string, Promise<Entry<unknown> | undefined>>();

  const clearListeners: (() => void)[] = [];

  /** Settled list and item entries, so the hottest paths can answer without waiting on a promise. */
  const settled = new Map<ContentType, Entry<unknown[]>>();
  const settledItems = new Map<string, Entry<unknown>>();

  const cache = {
    /** The list entry when it is already loaded and current (no await), else undefined. */
    peekList(type: ContentType): Entry<unknown[]> | undefined {
      const entry = settled.get(type);
      if (!entry || isCurrent(entry)) return entry;
      // Its order moved with the clock: forget it, so the next read loads it again.
      settled.delete(type);
      lists.delete(type);
      return undefined;
    },

    listEntry(type: ContentType): Promise<Entry<unknown[]>> {
      cache.peekList(type);
      return remember(lists, type, async () => {
        const generation = clears;
        const now = Date.now();
        const full = await service.list(type, now);
        const items = full.map(toPublicItem);
        const expiresAt = listOrderChangesAt(full, now);
        const entry = { value: items, answer: createAnswer(items, options), ...(expiresAt === undefined ? {} : { expiresAt }) };
        if (generation === clears) settled.set(type, entry);
        return entry;
      });
    },

    /** The item entry when it is already loaded (no await), else undefined. Only slugs that were looked up are keys. */
    peekItem(type: ContentType, slug: string): Entry<unknown> | undefined {
      return settledItems.get(`${type}/${slug}`);
    },

    itemEntry(type: ContentType, slug: string): Promise<Entry<unknown> | undefined> {
      if (details.size >= MAX_DETAIL_ENTRIES) {
        details.clear();
        settledItems.clear();
      }
      const key = `${type}/${slug}`;
      return remember(details, key, async () => {
        const generation = clears;
        const item = await service.get(type, slug);
        if (!item) return undefined;
        const value = await publicItem(item);
        const entry = { value, answer: createAnswer(value, options) };
        if (generation === clears) settledItems.set(key, entry);
        return entry;
      });
    },

    /** Drops every cached answer. */
    clear(): void {
      clears += 1;
      lists.clear();
      settled.clear();
      details.clear();
      settledItems.clear();
      for (const listener of clearListeners) listener();
    },

    /** Calls `listener` in the same step as every clear (whatever holds these answers forgets them too). */
    onClear(listener: () => void): void {
      clearListeners.push(listener);
    },
  };

  const reader: PublicContentReader = {
    list: async <T extends ContentType>(type: T) => (await cache.listEntry(type)).value as PublicItemOf<T>[],
    get: async <T extends ContentType>(type: T, slug: string) => (await cache.itemEntry(type, slug))?.value as PublicItemOf<T> | undefined,
  };

  service.onChange(() => cache.clear());
  return { ...cache, reader };
}

export type PublicContentCache = ReturnType<typeof createPublicContentCache>;
