/**
 * The community API (`/api/community`): categories, threads, replies, a member's own posts, likes,
 * search, and the comments under articles and lessons. Reads follow the one access rule (a category
 * anyone reads opens to visitors); every write needs a live session. Answers behind a token are
 * private (`identify`); a visitor's categories and first page of a category anyone reads are the
 * same for everyone, so they are public answers, serialised once, that the answer lane repeats
 * (tokenless requests only). Answer lane: GET /categories and a visitor's first GET /threads page offer
 * theirs (`lane?.offer`). Moderation's and the reply mails' routes join these in api.ts.
 */
import { Hono } from 'hono';
import type { AnswerLane } from '../platform/http/answer-lane.ts';
import type { AppContext, AppEnv } from '../platform/http/context.ts';
import { requestHeader } from '../platform/http/http.ts';
import { pathId, slugParam } from '../platform/http/request.ts';
import { jsonBody, jsonBodyWhenAsked, pathParams, queryOf } from '../platform/http/validators.ts';
import { sendCachedJson } from '../platform/http/respond.ts';
import type { Guards } from '../users/index.ts';
import { requireViewer } from '../users/index.ts';
import type { CommentsPlace } from './access.ts';
import { NewThreadSchema, PostPageQuery, PostTextSchema, SearchQuery, THREADS_PER_PAGE, ThreadListQuery } from './schema.ts';
import type { CommunityService } from './service.ts';

/**
 * A post's text, read when the service asks for it: after the access checks, so a caller below the
 * level hears 401 or 403 whatever the body holds. `text` goes in the route's chain, `textOf` reads it.
 */
const text = jsonBodyWhenAsked(PostTextSchema);
const textOf = (read: () => Promise<{ body: string }>) => async () => (await read()).body;
const threadId = (c: AppContext) => pathId(c, 'id', 'Thread not found');
const postId = (c: AppContext) => pathId(c, 'id', 'Post not found');
const articleComments = (c: AppContext): CommentsPlace => ({ type: 'blog', slug: slugParam(c, 'slug', 'Article') });
const lessonComments = (c: AppContext): CommentsPlace => ({
  type: 'course',
  slug: slugParam(c, 'slug', 'Course'),
  lessonId: slugParam(c, 'lessonId', 'Lesson'),
});

export function createCommunityRoutes({ community, guards, lane }: { community: CommunityService; guards: Guards; lane?: AnswerLane }) {
  const { identify, member, live } = guards;
  /** Who is asking when a token came (the answer turns private); a tokenless request stays a visitor's. */
  const identifyIfToken = async (c: AppContext) => {
    if (requestHeader(c, 'authorization') !== undefined) await identify(c, async () => {});
  };
  const tokenless = (headers: { authorization?: string | undefined }) => headers.authorization === undefined;

  return (
    new Hono<AppEnv>()
      .get('/categories', async (c) => {
        const answer = await community.categories();
        lane?.offer(c, () => community.peekCategories());
        return sendCachedJson(c, answer);
      })
      .get('/threads', queryOf(ThreadListQuery), async (c) => {
        const query = c.req.valid('query');
        await identifyIfToken(c);
        const viewer = c.get('viewer');
        // A visitor's first page of a category anyone reads: one serialised answer for every visitor.
        if (!viewer && !query.cursor && query.limit === THREADS_PER_PAGE) {
          const answer = await community.publicThreads(query.category);
          if (answer) {
            lane?.offer(c, (headers) => (tokenless(headers) ? community.peekPublicThreads(query.category) : undefined));
            return sendCachedJson(c, answer);
          }
        }
        return c.json(await community.threads(viewer, query.category, query.cursor, query.limit), 200);
      })
      .post('/threads', identify, live, jsonBody(NewThreadSchema), async (c) =>
        c.json(await community.createThread(requireViewer(c), c.req.valid('json')), 201),
      )
      .get(
        '/threads/:id',
        identify,
        pathParams((c) => ({ id: threadId(c) })),
        queryOf(PostPageQuery),
        async (c) => {
          const { cursor, limit } = c.req.valid('query');
          return c.json(await community.thread(c.get('viewer'), c.req.valid('param').id, cursor, limit), 200);
        },
      )
      .post('/threads/:id/replies', identify, live, text, async (c) => {
        const id = threadId(c);
        return c.json(await community.reply(requireViewer(c), id, textOf(c.req.valid('json'))), 201);
      })
      .get('/posts/:id/source', identify, member, async (c) => c.json(await community.source(requireViewer(c), postId(c)), 200))
      .patch('/posts/:id', identify, live, text, async (c) => {
        const id = postId(c);
        return c.json(await community.edit(requireViewer(c), id, textOf(c.req.valid('json'))), 200);
      })
      .delete('/posts/:id', identify, live, async (c) => c.json(await community.remove(requireViewer(c), postId(c)), 200))
      .put('/posts/:id/like', identify, live, async (c) => c.json(await community.like(requireViewer(c), postId(c), true), 200))
      .delete('/posts/:id/like', identify, live, async (c) => c.json(await community.like(requireViewer(c), postId(c), false), 200))
      .get('/search', identify, queryOf(SearchQuery), async (c) => {
        const { q, cursor } = c.req.valid('query');
        return c.json(await community.search(c.get('viewer'), q, cursor), 200);
      })
      // Comments: gated like the item's body (401 signed out, 404 unknown, 403 below its level).
      .get('/comments/blogs/:slug', identify, member, queryOf(PostPageQuery), async (c) => {
        const { cursor, limit } = c.req.valid('query');
        return c.json(await community.comments(requireViewer(c), articleComments(c), cursor, limit), 200);
      })
      .post('/comments/blogs/:slug', identify, live, text, async (c) => {
        const place = articleComments(c);
        return c.json(await community.comment(requireViewer(c), place, textOf(c.req.valid('json'))), 201);
      })
      .get('/comments/courses/:slug/lessons/:lessonId', identify, member, queryOf(PostPageQuery), async (c) => {
        const { cursor, limit } = c.req.valid('query');
        return c.json(await community.comments(requireViewer(c), lessonComments(c), cursor, limit), 200);
      })
      .post('/comments/courses/:slug/lessons/:lessonId', identify, live, text, async (c) => {
        const place = lessonComments(c);
        return c.json(await community.comment(requireViewer(c), place, textOf(c.req.valid('json'))), 201);
      })
  );
}

/** The community API as the browser's typed client (hono/client) sees it. */
export type CommunityRoutes = ReturnType<typeof createCommunityRoutes>;
