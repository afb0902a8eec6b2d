/**
 * The admin API under /api/admin (issue 11), every route admins only (401 signed out, 403 anyone
 * else): GET /overview; GET /users?q&page&limit (search); PATCH /users/{id} with accessLevel and/or
 * role (through the user service, audited); GET /audit?userId&limit; GET /content (every item of
 * both sources, for the content tab). All of it holds other people's data, so every route, reads
 * included, needs a session that is still signed in.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { ACCESS_LEVELS, ROLES } from '#shared/access.ts';
import { MemberFilterFields, withRangeChecks } from '#shared/members.ts';
import type { AppEnv } from '../platform/http/context.ts';
import { AppError } from '../platform/errors.ts';
import { LimitParam } from '../platform/http/request.ts';
import { jsonBody, pathIds, queryOf } from '../platform/http/validators.ts';
import type { Guards } from '../users/index.ts';
import { requireViewer } from '../users/index.ts';
import type { UserService } from '../users/index.ts';
import type { ContentService } from '../content/index.ts';
import type { AdminService } from './service.ts';

/** The Users tab's filter (#shared/members.ts) with a page. */
const UsersQuery = withRangeChecks(
  MemberFilterFields.extend({
    page: z.coerce.number({ error: 'page must be a number' }).int('page must be a whole number').min(1).max(10_000).default(1),
    limit: LimitParam.default(20),
  }).strict(),
);
const AuditQuery = z.object({ userId: z.uuid('userId must be a user id').optional(), limit: LimitParam.default(20) });
const AccessChange = z
  .object({ accessLevel: z.enum(ACCESS_LEVELS).optional(), role: z.enum(ROLES).optional() })
  .strict()
  .refine((b) => b.accessLevel !== undefined || b.role !== undefined, { message: 'Send accessLevel or role', path: ['accessLevel'] });

export function createAdminRoutes({
  admin,
  content,
  users,
  guards,
}: {
  admin: AdminService;
  content: ContentService;
  users: UserService;
  guards: Guards;
}) {
  return (
    new Hono<AppEnv>()
      // Everything here is other people's data: from a session still signed in, reads included.
      .use(guards.identify, guards.admin, guards.live)
      .get('/overview', async (c) => c.json(await admin.overview()))
      .get('/users', queryOf(UsersQuery), async (c) => c.json(await admin.searchUsers(c.req.valid('query'))))
      .patch('/users/:id', pathIds({ id: 'No such user.' }), jsonBody(AccessChange), async (c) => {
        const { id } = c.req.valid('param');
        const change = c.req.valid('json');
        const viewer = requireViewer(c);
        // An integration's key changes levels, never roles (a leaked key must not make an admin).
        if (viewer.apiKey && change.role !== undefined) throw new AppError('forbidden', 'An API key cannot change roles.');
        return c.json(await users.setAccess(viewer, id, change));
      })
      .get('/content', async (c) => c.json({ items: await content.catalog() }))
      .get('/audit', queryOf(AuditQuery), async (c) => {
        const { userId, limit } = c.req.valid('query');
        return c.json(await admin.audit({ targetId: userId, limit }));
      })
  );
}

/** The admin API as the browser's typed client (hono/client) sees it. */
export type AdminRoutes = ReturnType<typeof createAdminRoutes>;
