/** Data loading for the detail routes (server side only: page frontmatter). */
import type { AstroGlobal } from 'astro';
import type { ContentType, PublicItemOf } from '#shared/content/registry.ts';
import { SlugSchema } from '#shared/content/schema.ts';
import { getBuildReader, serverContext } from './context.ts';

/**
 * getStaticPaths for a type: one prebuilt page per MDX item. Database items always render on demand,
 * so an edit or a deletion at run time shows at once instead of leaving a stale file behind.
 */
export async function staticDetailPaths<T extends ContentType>(type: T) {
  const items = await (await getBuildReader()).fromGit(type);
  return items.map((item) => ({ params: { slug: item.slug }, props: { item } }));
}

export type DetailResult<T extends ContentType> = { status: 200; item: PublicItemOf<T> } | { status: 404 } | { status: 503 };

/**
 * Looks an item up for an on-demand detail page (items added after the build) and sets the
 * response status: 404 for unknown or malformed slugs, 503 when content cannot be read.
 */
export async function loadDetail<T extends ContentType>(astro: AstroGlobal, type: T): Promise<DetailResult<T>> {
  const slug = SlugSchema.safeParse(astro.params.slug ?? '');
  let result: DetailResult<T> = { status: 404 };
  if (slug.success) {
    try {
      const item = await (await serverContext(astro.locals)).content.get(type, slug.data);
      if (item) result = { status: 200, item };
    } catch (err) {
      console.error(`Failed to load ${type} "${slug.data}"`, err);
      result = { status: 503 };
    }
  }
  astro.response.status = result.status;
  astro.response.statusText = result.status === 200 ? 'OK' : result.status === 404 ? 'Not Found' : 'Service Unavailable';
  // A found item keeps the server's shared-cache policy for pages; a miss or a failure is never stored.
  if (result.status !== 200) astro.response.headers.set('Cache-Control', 'no-store');
  return result;
}
