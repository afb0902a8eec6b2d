/**
 * The reply mails' routes, under `/api/community` beside the core's: the member's global setting
 * (`GET`/`PUT /settings`), a thread's mute (`PUT /threads/{id}/mute`, a member who may read the
 * thread; 404 for threads that do not exist or that they cannot see, 401/403 by the level like a
 * gated body), and the mail's own links, which need no session: `POST /notifications/unsubscribe`
 * (the one-click POST of RFC 8058 with the token in the query, or the unsubscribe page's form) and
 * `POST /notifications/mute` (the mute page's form). Forms get a redirect to a result page, JSON
 * clients JSON. Writes from a member need a live session.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../platform/http/context.ts';
import { isFormPost, linkToken } from '../../platform/http/request.ts';
import { jsonBody, linkTokenBody, pathIds } from '../../platform/http/validators.ts';
import { redirectLocal } from '../../platform/http/respond.ts';
import type { Guards } from '../../users/index.ts';
import { requireViewer } from '../../users/index.ts';
import { NotificationLinkError, type NotificationService } from './service.ts';

const SettingsSchema = z.strictObject({ notifications: z.boolean() });
const MuteSchema = z.strictObject({ muted: z.boolean() });

/** Where the mail's pages are; a form post comes back to one of them. */
const PAGES = { unsubscribe: '/account/notifications/unsubscribe', mute: '/account/notifications/mute' } as const;
const DONE = { unsubscribe: '/account/notifications/unsubscribed', mute: '/account/notifications/muted' } as const;

/** The token from the query (the one-click POST) or from the body (the pages' forms); a malformed one is a bad link. */
function tokenFrom(c: AppContext, body: { token: string } | undefined): string {
  const fromQuery = c.req.query('token');
  if (fromQuery !== undefined) {
    const token = linkToken.safeParse(fromQuery);
    if (!token.success) throw new NotificationLinkError();
    return token.data;
  }
  return body!.token;
}

export function createCommunityNotificationRoutes({ notifications, guards }: { notifications: NotificationService; guards: Guards }) {
  const { identify, member, live } = guards;

  /** A link's action: JSON for the one-click POST and JSON clients, a redirect to the result page for the page's form. */
  const linkAction = async (
    c: AppContext,
    body: { token: string } | undefined,
    what: 'unsubscribe' | 'mute',
    act: (token: string) => Promise<void>,
  ) => {
    // A one-click POST carries `List-Unsubscribe=One-Click` as a form body and the token in the query.
    const form = isFormPost(c) && c.req.query('token') === undefined;
    try {
      await act(tokenFrom(c, body));
      return form ? redirectLocal(c, DONE[what]) : c.json({ status: what === 'mute' ? 'muted' : 'unsubscribed' });
    } catch (err) {
      if (!form || !(err instanceof NotificationLinkError)) throw err;
      return redirectLocal(c, `${PAGES[what]}?error=invalid`);
    }
  };

  return new Hono<AppEnv>()
    .post('/notifications/unsubscribe', linkTokenBody, (c) =>
      linkAction(c, c.req.valid('json'), 'unsubscribe', (token) => notifications.unsubscribe(token)),
    )
    .post('/notifications/mute', linkTokenBody, (c) =>
      linkAction(c, c.req.valid('json'), 'mute', (token) => notifications.muteByLink(token)),
    )
    .get('/settings', identify, member, async (c) => c.json(await notifications.settings(requireViewer(c))))
    .put('/settings', identify, live, jsonBody(SettingsSchema), async (c) =>
      c.json(await notifications.setSettings(requireViewer(c), c.req.valid('json').notifications)),
    )
    .put('/threads/:id/mute', identify, live, pathIds({ id: 'Thread not found' }), jsonBody(MuteSchema), async (c) =>
      c.json(await notifications.setMuted(requireViewer(c), c.req.valid('param').id, c.req.valid('json').muted)),
    );
}

/** The reply mails' routes as the browser's typed client (hono/client) sees them. */
export type CommunityNotificationRoutes = ReturnType<typeof createCommunityNotificationRoutes>;
