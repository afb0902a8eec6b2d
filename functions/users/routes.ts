/** The user API (spec point 7), every call authorised on the server from the access token. */
import { Hono } from 'hono';
import { z } from 'zod';
import { ACCESS_LEVELS } from '#shared/access.ts';
import { receivesNewsletter } from '#shared/newsletter.ts';
import { LANGUAGES } from './tables.ts';
import { AppError } from '../platform/errors.ts';
import type { AppEnv } from '../platform/http/context.ts';
import { emailAddress, singleLine, visibleText } from '../platform/http/request.ts';
import { jsonBody, pathIds } from '../platform/http/validators.ts';
import { createAnswer, sendPrivateJson } from '../platform/http/respond.ts';
import type { Guards } from './guards.ts';
import { MAX_NAME_CHARS } from './profiles.ts';
import { requireViewer } from './identity.ts';
import type { FeedService } from '../feeds/index.ts';
import type { ProgressService } from '../content/index.ts';
import type { UserService } from './service.ts';

const AccessLevelBody = z.object({ accessLevel: z.enum(ACCESS_LEVELS) });
const ProfilePatch = z
  .object({
    /** Shown to other members (community, support): without the characters that make it read backwards (`#shared/visible-text.ts`). */
    name: visibleText(singleLine('name', MAX_NAME_CHARS)).nullable().optional(),
    language: z.enum(LANGUAGES).optional(),
    newsletter: z.boolean({ error: 'newsletter must be true or false' }).optional(),
  })
  .strict();

const SIGNED_OUT = createAnswer({ viewer: null });

export function createUserRoutes({
  users,
  guards,
  progress,
  feeds,
}: {
  users: UserService;
  guards: Guards;
  progress: ProgressService;
  feeds: FeedService;
}) {
  const { live } = guards;
  return (
    new Hono<AppEnv>()
      .use(guards.identify)
      // Who the server takes the caller to be (null when signed out): the browser's check of its access level.
      .get('/me', (c) => {
        const viewer = c.get('viewer');
        // Signed out, the answer is always the same bytes: serialised once.
        if (!viewer) return sendPrivateJson(c, SIGNED_OUT);
        const { id, email, role, accessLevel } = viewer;
        const newsletter = viewer.newsletter ?? receivesNewsletter({ newsletter: null, accessLevel });
        return c.json({ viewer: { id, email, role, accessLevel, newsletter } });
      })
      .get('/byEmail/:email', guards.member, async (c) => {
        const viewer = requireViewer(c);
        const email = emailAddress.safeParse(c.req.param('email'));
        if (!email.success)
          throw new AppError('validation_failed', 'Not a valid email address.', { fields: { email: ['Not a valid email address'] } });
        // Your own profile on a signature; an admin reading someone else's needs a live session.
        if (email.data !== viewer.email && viewer.role === 'admin') await guards.requireLive(c);
        return c.json(await users.byEmail(viewer, email.data));
      })
      // Admins only (the service says so too): refused before the id or the body is read.
      .put('/:id/accessLevel', live, guards.admin, pathIds({ id: 'No such user.' }), jsonBody(AccessLevelBody), async (c) =>
        c.json(await users.setAccessLevel(requireViewer(c), c.req.valid('param').id, c.req.valid('json').accessLevel)),
      )
      .patch('/me', live, jsonBody(ProfilePatch), async (c) => c.json(await users.updateMe(requireViewer(c), c.req.valid('json'))))
      .delete('/me', live, async (c) => {
        await users.deleteMe(requireViewer(c));
        return c.body(null, 204);
      })
      // Course progress for the account page.
      .get('/me/progress', guards.member, async (c) => c.json(await progress.mine(requireViewer(c))))
      // The member's private RSS feed: its URL (a lasting credential, so only from a live session), and a reset that revokes the old one.
      .get('/me/feed', live, async (c) => c.json(await feeds.url(requireViewer(c))))
      .post('/me/feed/reset', live, async (c) => c.json(await feeds.reset(requireViewer(c))))
      .get('/me/export', live, async (c) => {
        const data = await users.exportMe(requireViewer(c));
        return c.json(data, 200, { 'Content-Disposition': 'attachment; filename="beacon-growth-data.json"' });
      })
  );
}

/** The user API as the browser's typed client (hono/client) sees it. */
export type UserRoutes = ReturnType<typeof createUserRoutes>;
