/**
 * The community's reply mails as members steer them: the global setting (`GET`/`PUT
 * /api/community/settings`), a thread's mute (`PUT /api/community/threads/{id}/mute`, for a member
 * who may read the thread by the core's rule, `access.assertReadThread`), and the mail's own links,
 * which work without signing in: the one-click unsubscribe of RFC 8058 (a `community-unsubscribe`
 * token naming the member; POST only, so link scanners that follow GET links change nothing) and
 * the mute page's button (a `community-mute` token naming the member and the thread). Tokens carry
 * no expiry, like the newsletter's: a mail may be opened months later. The round that sends the
 * mails is `round.ts`.
 */
import { z } from 'zod';
import type { DbOrTx } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors.ts';
import { memberDirectory } from '../../users/index.ts';
import type { Viewer } from '../../users/index.ts';
import { threadNotFound } from '../access.ts';
import { createCommunityStore } from '../store.ts';
import { createReplyMails, type ReplyMailDeps } from './round.ts';
import { createNotificationStore } from './store.ts';

/** A link from a reply mail that cannot be used (tampered, another purpose, or not one of ours). */
export class NotificationLinkError extends AppError {
  constructor() {
    super('bad_request', 'This link is not valid. Please use the link from your latest email.');
  }
}

/** Whether the account a link names still exists (read through the users domain's directory). */
const memberExists = async (tx: DbOrTx, id: string) => (await memberDirectory(tx).byIds([id])).length > 0;

const UnsubscribeClaims = z.object({ sub: z.uuid() });
const MuteClaims = z.object({ sub: z.uuid(), t: z.uuid() });

/** The service needs what its reply-mail round needs, and no more. */
export type NotificationServiceDeps = ReplyMailDeps;

export function createNotificationService(deps: NotificationServiceDeps) {
  const { db, tokens, access } = deps;

  async function verified<S extends z.ZodType>(purpose: 'community-unsubscribe' | 'community-mute', token: string, schema: S) {
    const result = await tokens.verify(purpose, token);
    const claims = result.ok ? schema.safeParse(result.claims) : undefined;
    if (!claims?.success) throw new NotificationLinkError();
    return claims.data as z.output<S>;
  }

  return {
    /** The reply-mail round: `tick(now?)` once (tests), `start()`/`stop()` on every instance. */
    mails: createReplyMails(deps),

    /** The member's global setting. */
    async settings(viewer: Viewer): Promise<{ notifications: boolean }> {
      return { notifications: await createNotificationStore(db).notificationsOn(viewer.id) };
    },

    /** Turns the member's reply mails on or off (off also drops what waits for a mail). */
    async setSettings(viewer: Viewer, notifications: boolean): Promise<{ notifications: boolean }> {
      await db.transaction((tx) => createNotificationStore(tx).setNotifications(viewer.id, notifications));
      return { notifications };
    },

    /** Mutes or unmutes a thread the viewer may read (404 for one that does not exist, 401/403 by its level). */
    async setMuted(viewer: Viewer, threadId: string, muted: boolean): Promise<{ muted: boolean }> {
      const found = await createCommunityStore(db).thread(threadId);
      if (!found) throw threadNotFound();
      await access.assertReadThread(viewer, found.thread, found.category);
      await createNotificationStore(db).setMuted(threadId, viewer.id, muted);
      return { muted };
    },

    /** The one-click unsubscribe and the unsubscribe page's button: reply mails off for the token's member. */
    async unsubscribe(token: string): Promise<void> {
      const { sub } = await verified('community-unsubscribe', token, UnsubscribeClaims);
      await db.transaction(async (tx) => {
        // A deleted account's link: nothing to turn off (no standing row is made for a missing member).
        if (await memberExists(tx, sub)) await createNotificationStore(tx).setNotifications(sub, false);
      });
    },

    /** The mute page's button: mutes the token's thread for its member (no level check: muting reveals nothing). */
    async muteByLink(token: string): Promise<void> {
      const { sub, t } = await verified('community-mute', token, MuteClaims);
      await db.transaction(async (tx) => {
        if ((await memberExists(tx, sub)) && (await createCommunityStore(tx).thread(t)))
          await createNotificationStore(tx).setMuted(t, sub, true);
      });
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
