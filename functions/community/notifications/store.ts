/**
 * The SQL of the community's reply mails: who is due a mail on which thread (the follow rows the
 * core's reply transaction marks pending, `followReply` in ../store.ts), claiming one under `FOR
 * UPDATE SKIP LOCKED` so two instances never mail it twice, the replies since the member's last
 * mail, the member's global setting (`community_members.notifications`, on when there is no row)
 * and a thread's mute. The thread itself is read through the core's store (`thread`). The member's
 * export of these rows is the core's (`personalData` there lists the setting and the follows).
 *
 * `notified_at` is when the replies before it were last dealt with: mailed, or dropped (the setting
 * off, no access, a mute lifted), so a mail never lists a reply a member was not to hear about.
 *
 * Times: `pending_since`, `notified_at` and the posts' `created_at` are all the database's `now()`,
 * so they compare with each other whatever the server's clock says; only "is the 15-minute window
 * over" takes the caller's `now` (tests move it).
 */
import { and, asc, eq, gt, gte, isNotNull, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { communityFollows, communityMembers, communityPosts } from '../tables.ts';

/** The batching window: at most one mail per thread and member in this long. */
export const WINDOW_MS = 15 * 60_000;

/** A follow row due a mail. */
export interface DueFollow {
  threadId: string;
  userId: string;
}

/** A claimed follow row: what bounds the replies its mail lists. */
export interface ClaimedFollow extends DueFollow {
  /** The first reply not mailed yet was marked then. */
  pendingSince: Date;
  /** The last mail on this thread to this member, or (none yet) when they began to follow it. */
  since: Date;
}

/** A reply the mail lists. */
export interface MailReply {
  id: string;
  authorId: string | null;
  html: string;
}

const f = communityFollows;
/** A row whose replies so far are dealt with (see `settle`). */
const SETTLED = { pendingSince: null, notifiedAt: sql`now()` };

/** Rows whose window is over at `now` and that still wait for a mail (muted rows never do). */
function dueAt(now: Date) {
  const windowEnd = new Date(now.getTime() - WINDOW_MS);
  return and(isNotNull(f.pendingSince), eq(f.muted, false), or(isNull(f.notifiedAt), lte(f.notifiedAt, windowEnd)));
}

export function createNotificationStore(db: DbOrTx) {
  return {
    /**
     * Follow rows due a mail at `now`, in (thread, member) order, from after `after` (the last row of
     * the previous batch): a row another instance holds stays due and is not read again this round.
     */
    async due(now: Date, limit: number, after?: DueFollow): Promise<DueFollow[]> {
      return db
        .select({ threadId: f.threadId, userId: f.userId })
        .from(f)
        .where(and(dueAt(now), after ? sql`(${f.threadId}, ${f.userId}) > (${after.threadId}, ${after.userId})` : undefined))
        .orderBy(asc(f.threadId), asc(f.userId))
        .limit(limit);
    },

    /**
     * Locks one follow row if it is still due at `now` and no other transaction holds it (SKIP
     * LOCKED: another instance mailing it, or a reply marking it, lets this round pass it by);
     * undefined otherwise. The caller clears or marks it in the same transaction.
     */
    async claim(threadId: string, userId: string, now: Date): Promise<ClaimedFollow | undefined> {
      const [row] = await db
        .select({
          threadId: f.threadId,
          userId: f.userId,
          pendingSince: f.pendingSince,
          since: sql<Date>`coalesce(${f.notifiedAt}, ${f.createdAt})`.mapWith(f.createdAt),
        })
        .from(f)
        .where(and(eq(f.threadId, threadId), eq(f.userId, userId), dueAt(now)))
        .for('update', { skipLocked: true });
      return row?.pendingSince ? { ...row, pendingSince: row.pendingSince } : undefined;
    },

    /**
     * The replies so far are dealt with: mailed in this transaction, or dropped (setting off, no
     * access, nothing visible). The next mail lists only what comes after, and not within 15 minutes
     * of now; the row waits for the next reply.
     */
    async settle(threadId: string, userId: string): Promise<void> {
      await db
        .update(f)
        .set(SETTLED)
        .where(and(eq(f.threadId, threadId), eq(f.userId, userId)));
    },

    /**
     * The visible replies by others the member was not mailed yet, oldest first (at most `limit`),
     * and how many there are: those after the last mail, and any from `pendingSince` on (a reply
     * whose transaction began before the last mail and committed after it).
     */
    async repliesFor(claim: ClaimedFollow, limit: number): Promise<{ replies: MailReply[]; total: number }> {
      const p = communityPosts;
      const where = and(
        eq(p.threadId, claim.threadId),
        eq(p.status, 'visible'),
        eq(p.isOpener, false),
        or(isNull(p.authorId), ne(p.authorId, claim.userId)),
        or(gt(p.createdAt, claim.since), gte(p.createdAt, claim.pendingSince)),
      );
      const replies = await db
        .select({ id: p.id, authorId: p.authorId, html: p.html, total: sql<number>`count(*) over ()`.mapWith(Number) })
        .from(p)
        .where(where)
        .orderBy(asc(p.createdAt), asc(p.id))
        .limit(limit);
      return { replies: replies.map(({ total: _, ...r }) => r), total: replies[0]?.total ?? 0 };
    },

    /** Whether the member gets reply mails (on unless they turned it off). */
    async notificationsOn(userId: string): Promise<boolean> {
      const [row] = await db
        .select({ on: communityMembers.notifications })
        .from(communityMembers)
        .where(eq(communityMembers.userId, userId));
      return row?.on ?? true;
    },

    /**
     * Sets the member's reply mails on or off (their standing row made if needed), and settles every
     * reply waiting for a mail: the round settles what comes while it is off, so turning it on mails
     * only what comes after.
     */
    async setNotifications(userId: string, on: boolean): Promise<void> {
      await db
        .insert(communityMembers)
        .values({ userId, notifications: on })
        .onConflictDoUpdate({ target: communityMembers.userId, set: { notifications: on, updatedAt: sql`now()` } });
      await db
        .update(f)
        .set(SETTLED)
        .where(and(eq(f.userId, userId), isNotNull(f.pendingSince)));
    },

    /**
     * Mutes or unmutes a thread for the member. Muting a thread they do not follow yet makes the row
     * (so a later reply of theirs keeps it muted) and drops what waits for a mail; unmuting a muted
     * thread settles it (replies while muted marked nothing pending, so the last mail would still
     * bound the next one), so a mail lists only replies from then on. Unmuting a thread they do not
     * follow, or did not mute, changes nothing.
     */
    async setMuted(threadId: string, userId: string, muted: boolean): Promise<void> {
      if (muted) {
        await db
          .insert(f)
          .values({ threadId, userId, muted: true })
          .onConflictDoUpdate({ target: [f.threadId, f.userId], set: { muted: true, pendingSince: null } });
      } else {
        await db
          .update(f)
          .set({ muted: false, ...SETTLED })
          .where(and(eq(f.threadId, threadId), eq(f.userId, userId), eq(f.muted, true)));
      }
    },
  };
}

export type NotificationStore = ReturnType<typeof createNotificationStore>;
