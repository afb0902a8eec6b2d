/**
 * The public index as the server serves it at /pagefind/ (issue 36): the build's index made again
 * from everything the server serves (database items, newsletter issues, community threads), so
 * content written at run time is searchable within the CDN's staleness bound, without a rebuild, and
 * a visitor's search still reads static files a CDN keeps (no query ever reaches the server).
 *
 * Made on the first request for it, then again when the entry file is asked for after a content or
 * community change, or when the mark of what has no notice moved (a newsletter issue went out): that
 * request waits for it. Once the staleness bound has passed it is made again in the background (the
 * current files answer meanwhile), which catches anything else. The entry file (`pagefind-entry.json`,
 * the one name that stays) carries the shared policy; every other file is named by a hash of what it
 * holds and is kept a year by browsers, ten minutes by shared caches. Older generations answer for ten minutes (the newest three always),
 * so a browser or CDN holding an older entry still finds its files; a build that changed nothing
 * public makes no generation. Builds are one at a time, 2 s apart at least (a busy forum's notices
 * make one build), 5 s after a failure; an instance asked for a hashed file it does not know after a
 * notice (another instance built the newer content) builds too, since the same records make the same
 * files everywhere, while a name a client made up builds nothing.
 */
import { AppError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import { createPageAnswer, type PageAnswer } from '../platform/site/page-answers.ts';
import type { IndexFiles } from './pagefind.ts';
import type { PublicRecord } from './public-records.ts';

export const ENTRY_FILE = 'pagefind-entry.json';
/** The files an index may hold: Pagefind's own names, nothing else reaches the lookup. */
const INDEX_FILE =
  /^(?:pagefind(?:-worker)?\.js|pagefind-entry\.json|wasm\.[a-z-]+\.pagefind|pagefind\.[a-z0-9_-]+\.pf_meta|(?:fragment|index|filter)\/[a-z0-9_-]+\.pf_(?:fragment|index|filter))$/;
/** Named by a hash of their bytes: never change under the same name. */
const HASHED = /\.pf_(?:meta|fragment|index|filter)$/;
/** Generations kept: the newest few always, older ones while a browser or CDN may still hold their entry. */
const KEEP_NEWEST = 3;
const KEEP_MAX = 10;
const KEEP_MS = 10 * 60_000;
/**
 * A hashed file's policy: a browser keeps it (its name changes with its bytes), a shared cache only
 * as long as the server keeps its generation, so text that stopped being public (a thread moved to a
 * members' category) is gone from a CDN within that time too.
 */
const HASHED_POLICY = `public, max-age=31536000, s-maxage=${KEEP_MS / 1000}, immutable`;
/** After a build, the next one waits this long (a busy forum's notices make one build, not one each). */
const BUILD_GAP_MS = 2000;
/** After a failed build, the next try waits this long. */
const RETRY_MS = 5000;

const TYPES: [RegExp, string][] = [
  [/\.js$/, 'text/javascript; charset=utf-8'],
  [/\.json$/, 'application/json; charset=utf-8'],
];

export interface PublicIndexDeps {
  /** Every public record the server serves now. */
  records: () => Promise<PublicRecord[]>;
  /**
   * A cheap mark of what no notice announces (the newest newsletter issue that went out), read when
   * the entry is asked for: a new mark makes the index anew, as a notice would.
   */
  mark?: () => Promise<string>;
  build: (records: readonly PublicRecord[]) => Promise<IndexFiles>;
  /** The entry's Cache-Control (the shared policy) and how long an entry is current. */
  cacheControl: string;
  stalenessMs: number;
  logger: Logger;
  now?: () => number;
}

interface Generation {
  answers: Map<string, PageAnswer>;
  builtAt: number;
}

function answersOf(files: IndexFiles, cacheControl: string): Map<string, PageAnswer> {
  const answers = new Map<string, PageAnswer>();
  for (const [name, bytes] of files) {
    const type = TYPES.find(([pattern]) => pattern.test(name))?.[1] ?? 'application/octet-stream';
    const headers = { 'Content-Type': type, 'Cache-Control': HASHED.test(name) ? HASHED_POLICY : cacheControl };
    answers.set(name, createPageAnswer({ status: 200, headers, bytes: Buffer.from(bytes) }));
  }
  return answers;
}

/**
 * The generations with one of `answers` first, the oldest dropped past the bounds; the same files as
 * the newest (a notice that changed nothing public) make no generation of their own, only move its time.
 */
function withGeneration(generations: Generation[], answers: Map<string, PageAnswer>, at: number): Generation[] {
  const newest = generations[0];
  if (newest && newest.answers.get(ENTRY_FILE)?.etag === answers.get(ENTRY_FILE)?.etag) {
    newest.builtAt = at;
    return generations;
  }
  return [{ answers, builtAt: at }, ...generations].filter((g, i) => i < KEEP_NEWEST || at - g.builtAt < KEEP_MS).slice(0, KEEP_MAX);
}

export function createPublicIndex({ records, mark, cacheControl, build, stalenessMs, logger, now = Date.now }: PublicIndexDeps) {
  let generations: Generation[] = [];
  /** The mark the newest generation was made at. */
  let builtMark: string | undefined;
  let building: Promise<void> | undefined;
  let changed = true;
  /** When the last build ended, and when the last one failed. */
  let builtAt = -Infinity;
  let failedAt = -Infinity;

  function rebuild(): Promise<void> {
    building ??= (async () => {
      changed = false;
      const startedAt = now();
      try {
        const at = await mark?.();
        const answers = answersOf(await build(await records()), cacheControl);
        generations = withGeneration(generations, answers, startedAt);
        builtMark = at;
      } catch (err) {
        changed = true;
        failedAt = now();
        logger.error({ err }, 'the public search index could not be built');
        if (generations.length === 0) throw new AppError('unavailable', 'The search index is not ready. Please try again shortly.');
      } finally {
        builtAt = now();
        building = undefined;
      }
    })();
    return building;
  }

  /** Whether a build may start now: one at a time, a gap after the last, longer after a failure. */
  const mayBuild = () => now() - builtAt >= BUILD_GAP_MS && now() - failedAt >= RETRY_MS;

  let scheduled = false;
  /** A build soon, in the background (once, however many requests ask). */
  function later(delayMs: number): void {
    if (scheduled || building) return;
    scheduled = true;
    setTimeout(() => {
      scheduled = false;
      if (mayBuild()) rebuild().catch(() => undefined);
      else later(BUILD_GAP_MS);
    }, delayMs).unref();
  }

  /** Whether the mark moved; a mark that cannot be read counts as unmoved (the staleness bound still holds). */
  async function markMoved(): Promise<boolean> {
    if (!mark) return false;
    try {
      return (await mark()) !== builtMark;
    } catch (err) {
      logger.warn({ err }, 'the public search index could not read its mark');
      return false;
    }
  }

  async function entry(): Promise<PageAnswer | undefined> {
    const moved = changed || (await markMoved());
    if (moved && mayBuild()) await rebuild();
    // A change within the gap, or a time-stale entry: the current files answer while the next is made.
    else if (moved) later(BUILD_GAP_MS);
    else if (now() - generations[0]!.builtAt >= stalenessMs) later(0);
    return generations[0]!.answers.get(ENTRY_FILE);
  }

  const find = (name: string) => generations.find((g) => g.answers.has(name))?.answers.get(name);

  return {
    /** Content or the community changed (here or on another instance): the next entry asked for is made anew. */
    changed(): void {
      changed = true;
    },

    /** The answer for a file of the index, or undefined when it has no such file. */
    async answer(name: string): Promise<PageAnswer | undefined> {
      if (!INDEX_FILE.test(name)) return undefined;
      if (generations.length === 0) {
        if (!mayBuild() && !building) throw new AppError('unavailable', 'The search index is not ready. Please try again shortly.');
        await rebuild();
      }
      if (name === ENTRY_FILE) return entry();
      // A hashed name no generation knows is newer content only after a notice (another instance
      // built it): then this one builds too. A name a client made up builds nothing.
      const found = find(name);
      if (found || !HASHED.test(name) || !changed || !mayBuild()) return found;
      await rebuild();
      return find(name);
    },

    /** Builds now (tests, and a start that wants the index ready). */
    refresh: rebuild,
  };
}

export type PublicIndex = ReturnType<typeof createPublicIndex>;
