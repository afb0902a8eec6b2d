/**
 * The community's reply mails, queued by a round on every instance (`start()`: every
 * COMMUNITY_MAIL_ROUND_SECONDS, 30 by default). The core's reply transaction marks every other
 * follower's row pending (`pending_since`); a round takes the rows whose member has had no mail on
 * that thread for 15 minutes, and for each, in one transaction: locks the row (`FOR UPDATE SKIP
 * LOCKED`, so two instances never take one row, and a row a reply is marking right now waits for
 * the next round), decides, queues ONE mail listing the visible replies by others since the member's
 * last mail or sends nothing, and settles the row either way (`store.settle`).
 *
 * Nothing is sent when the member turned reply mails off, the thread is no
 * longer visible, or the member may not read it NOW: the core's rule (`access.assertReadThread`),
 * asked with the member's profile as read in the transaction, so their level against the
 * category's or the commented item's. A member whose level dropped below a premium category gets no
 * mail and never its title.
 */
import type { EmailService } from '../../email/index.ts';
import type { ReplyExcerpt } from '../../email/index.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Tokens } from '../../platform/tokens.ts';
import { memberDirectory } from '../../users/index.ts';
import type { ProfileRow } from '../../users/index.ts';
import { excerpt } from './excerpt.ts';
import { AppError } from '../../platform/errors.ts';
import { itemPath } from '#shared/content/registry.ts';
import type { CommunityAccess } from '../access.ts';
import type { ThreadPlace } from '../answers.ts';
import { createCommunityStore } from '../store.ts';
import { createNotificationStore, type ClaimedFollow, type DueFollow } from './store.ts';

/** Follow rows read per query of a round. */
const BATCH = 200;
/** Replies a mail quotes; the rest are counted ("And 4 more replies"). */
const LISTED = 5;

export interface ReplyMailDeps {
  db: Db;
  outbox: EmailService;
  tokens: Tokens;
  /** The core's one rule of who reads which thread. */
  access: CommunityAccess;
  siteUrl: string;
  logger: Logger;
  /** Milliseconds between two rounds once started. */
  roundMs: number;
  clock?: () => Date;
}

/** The links every reply mail carries, signed for the member (and the thread, to mute it). */
export function mailLinks(tokens: Tokens, siteUrl: string, userId: string, threadId: string) {
  const off = tokens.signNow('community-unsubscribe', { sub: userId });
  const mute = tokens.signNow('community-mute', { sub: userId, t: threadId });
  return {
    unsubscribeUrl: `${siteUrl}/account/notifications/unsubscribe?token=${off}`,
    oneClickUrl: `${siteUrl}/api/community/notifications/unsubscribe?token=${off}`,
    muteUrl: `${siteUrl}/account/notifications/mute?token=${mute}`,
  };
}

/** The display name of a reply's author, as the thread page shows it ("A deleted member" once the account is gone). */
function authorName(profile: ProfileRow | undefined): string {
  if (!profile) return 'A deleted member';
  return profile.name?.trim() || 'Member';
}

/** The page a thread is read on. */
function threadUrl(siteUrl: string, threadId: string, place: ThreadPlace): string {
  if (place.kind === 'category') return `${siteUrl}/community/threads/${threadId}`;
  if (place.type === 'blog') return `${siteUrl}${itemPath('blog', place.slug)}`;
  return `${siteUrl}${itemPath('course', place.slug)}?lesson=${encodeURIComponent(place.lessonId)}`;
}

/** Where the thread is, if the member may read it now (the core's rule); undefined otherwise. */
async function placeFor(access: ReplyMailDeps['access'], tx: DbOrTx, member: ProfileRow, threadId: string) {
  const found = await createCommunityStore(tx).thread(threadId);
  if (found?.thread.status !== 'visible') return undefined;
  try {
    const viewer = { id: member.id, email: member.email, role: member.role, accessLevel: member.accessLevel };
    return { thread: found.thread, place: await access.assertReadThread(viewer, found.thread, found.category) };
  } catch (err) {
    if (err instanceof AppError) return undefined;
    throw err;
  }
}

/** The claimed row's mail, or undefined when nothing may be sent (the row is settled either way). */
async function composeFor(
  { access, siteUrl, tokens }: Pick<ReplyMailDeps, 'access' | 'siteUrl' | 'tokens'>,
  tx: DbOrTx,
  claim: ClaimedFollow,
) {
  const store = createNotificationStore(tx);
  const [member] = await memberDirectory(tx).byIds([claim.userId]);
  if (!member || !(await store.notificationsOn(member.id))) return undefined;
  // The one access rule, at the member's level now: below it, no mail and no title.
  const found = await placeFor(access, tx, member, claim.threadId);
  if (!found) return undefined;
  const { replies, total } = await store.repliesFor(claim, LISTED);
  if (total === 0) return undefined;
  const ids = [...new Set(replies.map((r) => r.authorId).filter((id): id is string => id !== null))];
  const authors = new Map((await memberDirectory(tx).byIds(ids)).map((p) => [p.id, p]));
  const listed: ReplyExcerpt[] = replies.map((r) => ({
    author: authorName(r.authorId ? authors.get(r.authorId) : undefined),
    excerpt: excerpt(r.html),
  }));
  const { thread, place } = found;
  return {
    to: member.email,
    userId: member.id,
    template: 'community-replies' as const,
    data: {
      title: thread.title,
      place: place.kind === 'category' ? place.name : `Comments on ${thread.title}`,
      threadUrl: threadUrl(siteUrl, thread.id, place),
      replies: listed,
      more: total - listed.length,
      ...mailLinks(tokens, siteUrl, member.id, thread.id),
    },
  };
}

export function createReplyMails({ db, outbox, tokens, access, siteUrl, logger, roundMs, clock = () => new Date() }: ReplyMailDeps) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  /** One follow row, in its own transaction: 'queued', 'cleared' (nothing to send) or 'skipped' (not due, or held elsewhere). */
  function notifyOne(row: DueFollow, now: Date): Promise<'queued' | 'cleared' | 'skipped'> {
    return db.transaction(async (tx) => {
      const store = createNotificationStore(tx);
      const claim = await store.claim(row.threadId, row.userId, now);
      if (!claim) return 'skipped';
      const mail = await composeFor({ access, siteUrl, tokens }, tx, claim);
      await store.settle(row.threadId, row.userId);
      if (!mail) return 'cleared';
      await outbox.enqueue(tx, mail);
      return 'queued';
    });
  }

  /** Every row due at `now`, a batch at a time; answers how many mails were queued. */
  async function round(now: Date): Promise<number> {
    let queued = 0;
    let after: DueFollow | undefined;
    for (;;) {
      const batch = await createNotificationStore(db).due(now, BATCH, after);
      for (const row of batch) {
        try {
          if ((await notifyOne(row, now)) === 'queued') queued += 1;
        } catch (err) {
          // The row stays pending: the next round tries it again; the others go on.
          logger.warn({ err, threadId: row.threadId }, 'a community reply mail failed; the next round tries again');
        }
      }
      if (batch.length < BATCH) return queued;
      after = batch.at(-1);
    }
  }

  /** A round, unless one is running in this process (then its result). */
  function tickOnce(now?: Date): Promise<number> {
    running ??= round(now ?? clock()).finally(() => {
      running = undefined;
    });
    return running;
  }

  const background = () => void tickOnce().catch((err: unknown) => logger.warn({ err }, 'community reply mail round failed'));

  return {
    /** Queues every reply mail due at `now` (tests pass their own moment); answers how many. */
    tick: tickOnce,
    /** A round every `roundMs` on this instance. */
    start(): void {
      if (timer) return;
      timer = setInterval(background, roundMs);
      timer.unref();
      background();
    },
    /** Stops the rounds and waits for one under way. */
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}

export type ReplyMails = ReturnType<typeof createReplyMails>;
