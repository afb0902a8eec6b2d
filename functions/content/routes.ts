/** Public content API (spec point 7): lists and details, public fields only, cached with ETags. */
import { Hono } from 'hono';
import { SlugSchema } from '../../src/lib/content/schema.ts';
import { CONTENT_TYPE_INFO, typeFromApiSegment } from '../../src/lib/content/registry.ts';
import { AppError } from '../errors.ts';
import type { AppEnv } from '../lib/context.ts';
import { sendCachedJson } from '../lib/respond.ts';
import type { PublicContentCache } from './cache.ts';

const SEGMENTS = Object.values(CONTENT_TYPE_INFO).map((i) => i.apiSegment).join(', ');

function resolveType(segment: string) {
  const type = typeFromApiSegment(segment);
  if (!type) throw new AppError('not_found', `Unknown content type. Use one of: ${SEGMENTS}.`);
  return type;
}

export function createPublicContentRoutes(cache: PublicContentCache) {
  return new Hono<AppEnv>()
    .get('/:segment', async (c) => {
      const type = resolveType(c.req.param('segment'));
      const entry = cache.peekList(type) ?? (await cache.listEntry(type));
      return sendCachedJson(c, entry.answer);
    })
    .get('/:segment/:slug', async (c) => {
      const type = resolveType(c.req.param('segment'));
      const slug = SlugSchema.safeParse(c.req.param('slug'));
      const entry = slug.success ? await cache.itemEntry(type, slug.data) : undefined;
      if (!entry) throw new AppError('not_found', `${CONTENT_TYPE_INFO[type].singular} not found`);
      return sendCachedJson(c, entry.answer);
    });
}
