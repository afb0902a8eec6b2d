/**
 * The creator API (issue 11): `POST /api/content/{segment}` creates a database item, `GET
 * /api/content/{segment}/{id}` reads one as its form holds it (for editing), `PATCH` changes one
 * (validated again as a whole; `published: false` unpublishes it, `true` publishes it again),
 * `DELETE` removes one. Unpublished items keep their slug and leave every live public and member
 * channel (pages built before stay as built until the next build: docs/decisions/0014-two-content-sources.md).
 * Editors and admins only, from a live session; editors change only what they wrote, admins
 * anything. Input is checked with the content registry's own schema (the form's), slugs are made
 * unique, and Markdown bodies are stored as written and sanitised when rendered. Git items have no
 * id here: they change through git. Paths are spelt out per type so Hono keeps its RegExpRouter.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { CONTENT_TYPE_INFO, CONTENT_TYPES, itemPath, type ContentItem, type ContentType } from '#shared/content/registry.ts';
import type { AppContext, AppEnv } from '../../platform/http/context.ts';
import { pathId } from '../../platform/http/request.ts';
import { jsonBody, pathParams } from '../../platform/http/validators.ts';
import type { Guards } from '../../users/index.ts';
import { requireViewer } from '../../users/index.ts';
import type { Viewer } from '../../users/index.ts';
import type { ContentService } from '../service.ts';

/** What the creator API answers: a written item with its page, and an item as its form holds it. */
export interface ContentWriteAnswers {
  written: { item: ContentItem; path: string };
  editable: Awaited<ReturnType<ContentService['editable']>>;
}

/** Any JSON object: the content service validates it against the type's schema. */
const AnyObject = z.record(z.string(), z.unknown());
const itemId = (c: AppContext, type: ContentType) => pathId(c, 'id', `${CONTENT_TYPE_INFO[type].singular} not found`);

/** What the routes of every type need. */
interface WriteDeps {
  content: ContentService;
  guards: Guards;
}

/**
 * One type's routes, chained onto `app` at `/{segment}`. Generic in the segment so that the chain's
 * type, taken at `:segment`, is the one the browser's typed client calls for every type.
 */
function typeRoutes<Seg extends string>(app: Hono<AppEnv>, segment: Seg, type: ContentType, { content, guards }: WriteDeps) {
  // Per route, not `use`: under the shared /api/content prefix a `use` would also run for the gated
  // reads. (The gated router's `use` runs first here; identify then skips a known viewer.)
  const { identify: who, live } = guards;
  const staff = guards.staff('create or change content');
  const actor = (viewer: Viewer) => ({ id: viewer.id, admin: viewer.role === 'admin' });
  const base = `/${segment}` as const;
  return (
    app
      .post(base, who, live, staff, jsonBody(AnyObject), async (c) => {
        const viewer = requireViewer(c);
        const item = await content.create(type, c.req.valid('json'), { createdBy: viewer.id });
        return c.json({ item, path: itemPath(type, item.slug) } satisfies ContentWriteAnswers['written'], 201);
      })
      // Drafts and unpublished items: from a live session, like the writes.
      .get(`${base}/:id`, who, live, staff, async (c) => {
        const viewer = requireViewer(c);
        return c.json((await content.editable(type, itemId(c, type), actor(viewer))) satisfies ContentWriteAnswers['editable']);
      })
      .patch(
        `${base}/:id`,
        who,
        live,
        staff,
        pathParams((c) => ({ id: itemId(c, type) })),
        jsonBody(AnyObject),
        async (c) => {
          const viewer = requireViewer(c);
          const item = await content.update(type, c.req.valid('param').id, c.req.valid('json'), actor(viewer));
          return c.json({ item, path: itemPath(type, item.slug) } satisfies ContentWriteAnswers['written']);
        },
      )
      .delete(`${base}/:id`, who, live, staff, async (c) => {
        const viewer = requireViewer(c);
        await content.remove(type, itemId(c, type), actor(viewer));
        return c.body(null, 204);
      })
  );
}

export function createContentWriteRoutes(deps: WriteDeps) {
  const app = new Hono<AppEnv>();
  for (const type of CONTENT_TYPES) typeRoutes(app, CONTENT_TYPE_INFO[type].apiSegment, type, deps);
  return app;
}

/** The creator API as the browser's typed client sees it: every type's routes are these at `/{segment}`. */
export type ContentWriteRoutes = ReturnType<typeof typeRoutes<':segment'>>;
