/**
 * The public index as the server serves it at /pagefind/ (issue 36): the build's index made again
 * from everything the server serves (database items, newsletter issues, community threads), so
 * content written at run time is searchable within the CDN's staleness bound, without a rebuild, and
 * a visitor's search still reads static files a CDN keeps (no query ever reaches the server).
 *
 * Made on the first request for it, then again when the entry file is asked for after a content or
 * community change (that request waits for it), or once the staleness bound has passed (sources
 * without a notice, such as a newsletter issue going out: the current files answer meanwhile). The entry file (`pagefind-entry.json`,
 * the one name that stays) carries the shared policy; every other file is named by a hash of what it
 * holds and is kept for a year. The last three generations answer, so a browser or CDN holding an
 * older entry still finds its files; an instance asked for a file it does not know (another instance
 * built newer content) builds once more, at most every few seconds, since the same records make the
 * same files everywhere.
 */
import type { Logger } from '../platform/logger.ts';
import { createPageAnswer, type PageAnswer } from '../platform/site/page-answers.ts';
import { IMMUTABLE } from '../platform/http/cache-control.ts';
import type { IndexFiles } from './pagefind.ts';
import type { PublicRecord } from './public-records.ts';

export const ENTRY_FILE = 'pagefind-entry.json';
/** The files an index may hold: Pagefind's own names, nothing else reaches the lookup. */
const INDEX_FILE =
  /^(?:pagefind(?:-worker)?\.js|pagefind-entry\.json|wasm\.[a-z-]+\.pagefind|pagefind\.[a-z0-9_-]+\.pf_meta|(?:fragment|index|filter)\/[a-z0-9_-]+\.pf_(?:fragment|index|filter))$/;
/** Named by a hash of their bytes: never change under the same name. */
const HASHED = /\.pf_(?:meta|fragment|index|filter)$/;
const GENERATIONS = 3;
/** A file no generation knows makes at most one build this often. */
const MISS_REBUILD_MS = 5000;

const TYPES: [RegExp, string][] = [
  [/\.js$/, 'text/javascript; charset=utf-8'],
  [/\.json$/, 'application/json; charset=utf-8'],
];

export interface PublicIndexDeps {
  /** Every public record the server serves now. */
  records: () => Promise<PublicRecord[]>;
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
    const headers = { 'Content-Type': type, 'Cache-Control': HASHED.test(name) ? IMMUTABLE : cacheControl };
    answers.set(name, createPageAnswer({ status: 200, headers, bytes: Buffer.from(bytes) }));
  }
  return answers;
}

export function createPublicIndex({ records, build, cacheControl, stalenessMs, logger, now = Date.now }: PublicIndexDeps) {
  let generations: Generation[] = [];
  let building: Promise<void> | undefined;
  let changed = true;

  function rebuild(): Promise<void> {
    building ??= (async () => {
      changed = false;
      const startedAt = now();
      try {
        const answers = answersOf(await build(await records()), cacheControl);
        generations = [{ answers, builtAt: startedAt }, ...generations].slice(0, GENERATIONS);
      } catch (err) {
        changed = true;
        logger.error({ err }, 'the public search index could not be built');
        if (generations.length === 0) throw err;
      } finally {
        building = undefined;
      }
    })();
    return building;
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
      if (generations.length === 0) await rebuild();
      const newest = generations[0]!;
      if (name === ENTRY_FILE) {
        // A change is waited for; a time-stale entry answers while the next is made.
        if (changed) await rebuild();
        else if (now() - newest.builtAt >= stalenessMs) void rebuild().catch(() => undefined);
        return generations[0]!.answers.get(ENTRY_FILE);
      }
      const found = find(name);
      if (found || !HASHED.test(name) || now() - newest.builtAt < MISS_REBUILD_MS) return found;
      await rebuild();
      return find(name);
    },

    /** Builds now (tests, and a start that wants the index ready). */
    refresh: rebuild,
  };
}

export type PublicIndex = ReturnType<typeof createPublicIndex>;
