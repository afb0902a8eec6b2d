/**
 * Public content API (spec point 7): lists and details, public fields only, cached with ETags.
 * Answer lane: both routes offer a loaded answer (`sendLoaded`), so the Node listener may answer the
 * same URL from memory before the app runs, until the content changes (answer-lane.ts).
 */
import { Hono } from 'hono';
import { SlugSchema } from '#shared/content/schema.ts';
import { CONTENT_TYPE_INFO, typeFromApiSegment, type ContentType, type PublicItem } from '#shared/content/registry.ts';
import { AppError } from '../platform/errors.ts';
import type { AppContext, AppEnv } from '../platform/http/context.ts';
import type { AnswerLane } from '../platform/http/answer-lane.ts';
import { sendCachedJson, type CachedAnswer, type JsonAnswer } from '../platform/http/respond.ts';
import { isCurrent, type PublicContentCache } from './cache.ts';

const SEGMENTS = Object.values(CONTENT_TYPE_INFO)
  .map((i) => i.apiSegment)
  .join(', ');

/** What the cache's answers hold (it keeps them untyped): a list's public items, or one. */
type ListAnswer = CachedAnswer<PublicItem[]>;
type ItemAnswer = CachedAnswer<PublicItem>;

function resolveType(segment: string) {
  const type = typeFromApiSegment(segment);
  if (!type) throw new AppError('not_found', `Unknown content type. Use one of: ${SEGMENTS}.`);
  return type;
}

export function createPublicContentRoutes(cache: PublicContentCache, lane?: AnswerLane) {
  /**
   * A loaded answer is sent without waiting on anything, and offered to the answer lane (until it
   * goes out of date by itself, when the lane steps aside and the app loads it again).
   */
  const sendLoaded = <T>(c: AppContext, answer: CachedAnswer<T>, expiresAt?: number) => {
    lane?.offer(c, expiresAt === undefined ? () => answer : () => (isCurrent({ expiresAt }) ? answer : undefined));
    return sendCachedJson(c, answer);
  };
  return new Hono<AppEnv>()
    .get('/:segment', (c) => {
      const type = resolveType(c.req.param('segment'));
      const entry = cache.peekList(type);
      return entry ? sendLoaded(c, entry.answer as ListAnswer, entry.expiresAt) : loadList(c, type);
    })
    .get('/:segment/:slug', (c) => {
      const type = resolveType(c.req.param('segment'));
      // A loaded item's key was a valid slug when it was looked up.
      const entry = cache.peekItem(type, c.req.param('slug'));
      return entry ? sendLoaded(c, entry.answer as ItemAnswer) : loadItem(c, type);
    });

  async function loadList(c: AppContext, type: ContentType): Promise<JsonAnswer<PublicItem[]>> {
    return sendCachedJson(c, (await cache.listEntry(type)).answer as ListAnswer);
  }

  async function loadItem(c: AppContext, type: ContentType): Promise<JsonAnswer<PublicItem>> {
    const slug = SlugSchema.safeParse(c.req.param('slug'));
    const entry = slug.success ? await cache.itemEntry(type, slug.data) : undefined;
    if (!entry) throw new AppError('not_found', `${CONTENT_TYPE_INFO[type].singular} not found`);
    return sendCachedJson(c, entry.answer as ItemAnswer);
  }
}

/** The public content API as the browser's typed client (hono/client) sees it. */
export type PublicContentRoutes = ReturnType<typeof createPublicContentRoutes>;
