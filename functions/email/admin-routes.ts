/**
 * The email dashboard's API (spec point 7), admins only: GET /api/email/queue and /recent (`?limit`,
 * 1-50, default 10) and POST /api/email/{id}/resend, over the outbox. Answers are the spec's Email
 * record plus its `delivery` state (attempts, last error, next attempt). Identity is checked per
 * route, so the signed webhook beside it never reads a token.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../platform/http/context.ts';
import { LimitParam, pathId } from '../platform/http/request.ts';
import { queryOf } from '../platform/http/validators.ts';
import type { Guards } from '../users/index.ts';
import { EMAIL_POST_SEGMENT } from './routes.ts';
import { emailRecord } from './schema.ts';
import type { EmailService } from './service.ts';

const ListQuery = z.object({ limit: LimitParam });

export function createEmailAdminRoutes({ outbox, guards }: { outbox: EmailService; guards: Guards }) {
  const { identify: who, admin: adminOnly, live } = guards;
  // Other people's mail: reads too need a session that is still signed in (`live`).
  return (
    new Hono<AppEnv>()
      .get('/queue', who, adminOnly, live, queryOf(ListQuery), async (c) =>
        c.json((await outbox.queue(c.req.valid('query').limit)).map((row) => emailRecord(row))),
      )
      .get('/recent', who, adminOnly, live, queryOf(ListQuery), async (c) =>
        c.json((await outbox.recent(c.req.valid('query').limit)).map((row) => emailRecord(row))),
      )
      // The path takes only an id's characters (EMAIL_POST_SEGMENT); "events" or a malformed id is 404 for everyone.
      .post(
        `/${EMAIL_POST_SEGMENT}/resend`,
        async (c, next) => {
          pathId(c, 'segment', 'No email with that id.');
          await next();
        },
        who,
        adminOnly,
        live,
        async (c) => c.json(emailRecord(await outbox.resend(c.req.param('segment')))),
      )
  );
}

/** The email dashboard's API as the browser's typed client (hono/client) sees it. */
export type EmailAdminRoutes = ReturnType<typeof createEmailAdminRoutes>;
