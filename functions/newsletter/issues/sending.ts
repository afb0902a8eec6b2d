/**
 * Sending an issue: exactly one copy per recipient, cut at their level, and an exact account of every
 * issue. In ONE transaction the issue moves to `sending` with a conditional update (only from draft,
 * scheduled or failed: a retried or concurrent send, a second tick or another instance finds nothing
 * to claim and writes nothing), the audience is resolved and de-duplicated by address (a member who
 * is also on the list gets one copy, cut at their member level), and the copy rows are written first
 * (`newsletter_deliveries`, primary key (issue, address)): mail is queued only for the rows that insert
 * reports new, so the key itself is what guarantees one copy. Suppressed addresses and members who
 * turned the newsletter off get a row marked suppressed and no mail; every other copy goes to the
 * outbox as bulk mail in the issue's batch (each cut rendered once; the database fills in each
 * recipient's unsubscribe token, in multi-row inserts). From there the outbox's guarantees hold per
 * copy (leases, retries with backoff, a killed worker's mail reclaimed).
 *
 * The account: recipients and suppressed are stored with the copies, bounced and unsubscribed count
 * up on the issue as they happen; sent, failed and pending are the outbox's tally of the batch, live
 * while the issue sends, and stored by the scheduler's round when nothing is pending (status `sent`).
 * Who an audience holds is audience.ts's, which the editor's recipient counts use too.
 */
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import type { EmailService, MailTally } from '../../email/index.ts';
import type { Logger } from '../../platform/logger.ts';
import type { RenderBody } from '../../content/index.ts';
import type { Tokens } from '../../platform/tokens.ts';
import type { IssueRow } from '../tables.ts';
import { resolveAudience, type SegmentMembers } from './audience.ts';
import { assertRenders, copyTemplate, issuePath } from './mail.ts';
import { createIssueStore } from './store.ts';
import type { WebhookEmitter } from '../../outbound/index.ts';

/** An issue's account: recipients = sent + failed + suppressed + pending; bounced and unsubscribed after. */
export interface IssueStats {
  recipients: number;
  sent: number;
  failed: number;
  suppressed: number;
  pending: number;
  bounced: number;
  unsubscribed: number;
}

export const NO_STATS: IssueStats = { recipients: 0, sent: 0, failed: 0, suppressed: 0, pending: 0, bounced: 0, unsubscribed: 0 };
const NO_MAIL: MailTally = { queued: 0, sent: 0, failed: 0 };

/** The outbox batch an issue's copies belong to. */
export const issueBatch = (issueId: string) => `newsletter:${issueId}`;
/** The issue a batch belongs to; undefined for any other batch. */
export const batchIssue = (batch: string | null) => (batch?.startsWith('newsletter:') ? batch.slice('newsletter:'.length) : undefined);

/** Copies of one cut written per statement (the database fills each recipient's link into the cut). */
const BATCH = 1000;

export interface IssueSenderDeps {
  db: Db;
  /** The members a saved segment picks (the members domain's filter), for segment audiences. */
  segments?: SegmentMembers;
  outbox: EmailService;
  tokens: Tokens;
  siteUrl: string;
  /** Renders the body once per cut (the server's staff renderer, off the server's thread). */
  render: RenderBody;
  /** Copies of one issue handed to the worker per minute (NEWSLETTER_RATE_PER_MINUTE); undefined: no cap. */
  ratePerMinute?: number | undefined;
  logger: Logger;
  /** Outbound webhooks: newsletter.sent, in the transaction that hands the issue's copies to the outbox. */
  webhooks: WebhookEmitter;
}

/** An issue's account from its row and (while it sends) its batch's tally. */
function accountOf(row: IssueRow, tally: MailTally | undefined): IssueStats {
  if (row.status !== 'sending' && row.status !== 'sent') return NO_STATS;
  const mail = row.status === 'sent' ? { queued: 0, sent: row.sent, failed: row.failed } : (tally ?? NO_MAIL);
  const { recipients, suppressed, bounced, unsubscribed } = row;
  return { recipients, sent: mail.sent, failed: mail.failed, suppressed, pending: mail.queued, bounced, unsubscribed };
}

/** Writes every copy of a claimed issue inside `tx`: the rows first, then mail for the new ones. */
async function writeCopies(
  { outbox, tokens, siteUrl, render, ratePerMinute, segments }: IssueSenderDeps,
  tx: DbOrTx,
  issue: IssueRow,
): Promise<{ recipients: number; mailed: number }> {
  // Whoever the audience holds (nobody, even): an issue whose body cannot render never goes out.
  await assertRenders(issue, render);
  const recipients = await resolveAudience(tx, issue.audience, segments);
  const store = createIssueStore(tx);
  const fresh = await store.insertCopies(
    recipients.map(({ address, userId, level, suppressed }) => ({ issueId: issue.id, address, userId, level, suppressed })),
  );
  const mailed = recipients.filter((r) => !r.suppressed && fresh.has(r.address));
  // A rate spreads the copies over minutes, in the recipients' order; the worker takes each when it is due.
  const start = Date.now();
  const slots = new Map(mailed.map((r, n) => [r.address, ratePerMinute ? Math.floor(n / ratePerMinute) : 0]));
  const addresses: string[] = [];
  const emailIds: string[] = [];
  for (const level of new Set(mailed.map((r) => r.level))) {
    const { rendered, placeholder } = await copyTemplate(issue, level, { siteUrl, render });
    const group = mailed.filter((r) => r.level === level);
    for (let i = 0; i < group.length; i += BATCH) {
      const batch = group.slice(i, i + BATCH);
      const copies = batch.map((r) => {
        const slot = slots.get(r.address)!;
        return {
          to: r.address,
          fill: tokens.signNow('newsletter-unsubscribe', { i: issue.id, a: r.address }),
          ...(r.userId ? { userId: r.userId } : {}),
          ...(slot > 0 ? { notBefore: new Date(start + slot * 60_000) } : {}),
        };
      });
      const ids = await outbox.enqueueCopies(tx, 'newsletter-issue', rendered, placeholder, copies, {
        bulk: true,
        batch: issueBatch(issue.id),
      });
      addresses.push(...batch.map((r) => r.address));
      emailIds.push(...ids);
    }
  }
  await store.linkMail(issue.id, addresses, emailIds);
  await store.recordCopies(issue.id);
  return { recipients: recipients.length, mailed: mailed.length };
}

/** Claims the issue with `claim` and writes its copies, all in one transaction; undefined when there was nothing to claim. */
async function sendClaimed(deps: IssueSenderDeps, claim: (tx: DbOrTx) => Promise<IssueRow | undefined>): Promise<IssueRow | undefined> {
  const { db, siteUrl, logger, webhooks } = deps;
  const started = Date.now();
  const result = await db.transaction(async (tx) => {
    const issue = await claim(tx);
    if (!issue) return undefined;
    const written = await writeCopies(deps, tx, issue);
    // Once per issue: the claim above is a conditional update only one sender wins.
    const { id, slug, subject, accessLevel, audience } = issue;
    const url = `${siteUrl}${issuePath(slug)}`;
    await webhooks.emit(tx, 'newsletter.sent', { issue: { id, slug, subject, accessLevel, audience, url, ...written } });
    return { issue, ...written };
  });
  if (result)
    logger.info(
      { issueId: result.issue.id, recipients: result.recipients, mailed: result.mailed, ms: Date.now() - started },
      'newsletter issue written to the outbox',
    );
  return result?.issue;
}

/** The accounts of these issues: stored for sent issues, live for sending ones (one outbox query for all of them). */
async function accounts({ outbox }: IssueSenderDeps, rows: IssueRow[]): Promise<Map<string, IssueStats>> {
  const live = rows.filter((r) => r.status === 'sending').map((r) => issueBatch(r.id));
  const tallies = await outbox.tally(live);
  return new Map(rows.map((r) => [r.id, accountOf(r, tallies.get(issueBatch(r.id)))]));
}

/** Sends every due scheduled issue; one that cannot be sent is marked `failed` (and logged), and the next goes on. */
async function sendDue(deps: IssueSenderDeps): Promise<void> {
  const { db, logger } = deps;
  for (;;) {
    const claimed: { id?: string } = {};
    try {
      const sent = await sendClaimed(deps, async (tx) => {
        const row = await createIssueStore(tx).claimDue();
        claimed.id = row?.id;
        return row;
      });
      if (!sent) return;
    } catch (err) {
      // Claiming itself failed (the database): the next round tries again.
      if (!claimed.id) throw err;
      // Its transaction rolled back: nothing of it went out. It leaves the schedule, so it blocks no later issue.
      await createIssueStore(db).markFailed(claimed.id);
      logger.error({ err, issueId: claimed.id }, 'newsletter issue could not be sent; marked failed');
    }
  }
}

/** Marks sent, with their final counts, the sending issues none of whose copies is still queued. */
async function settle({ db, outbox }: IssueSenderDeps): Promise<void> {
  const store = createIssueStore(db);
  const rows = await store.sending();
  const tallies = await outbox.tally(rows.map((r) => issueBatch(r.id)));
  for (const { id } of rows) {
    const mail = tallies.get(issueBatch(id)) ?? NO_MAIL;
    if (mail.queued === 0) await store.markSent(id, mail);
  }
}

/** One scheduler round (see `tick` below); a round still running is not started twice. */
async function tick(deps: IssueSenderDeps): Promise<void> {
  await sendDue(deps);
  await settle(deps);
}

export function createIssueSender(deps: IssueSenderDeps) {
  const { logger } = deps;

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  return {
    /** Sends a draft, scheduled or failed issue now; undefined when it is none of these (already sent, sending, or gone). */
    sendNow: (id: string) => sendClaimed(deps, (tx) => createIssueStore(tx).claimForSending(id)),

    /** The accounts of these issues: stored for sent issues, live for sending ones (one outbox query for all of them). */
    accounts: (rows: IssueRow[]) => accounts(deps, rows),

    /**
     * The scheduler's round (every 30 s on every instance): sends each scheduled issue that is due,
     * one transaction each (SKIP LOCKED: instances share the work, never an issue; one that fails is
     * marked `failed` and the round goes on), then marks sent, with their final counts, the issues
     * whose copies have all left the queue.
     */
    tick: () => tick(deps),

    /** Runs `tick` every `intervalMs` (services.start(), on every instance). */
    start(intervalMs = 30_000): void {
      if (timer) return;
      timer = setInterval(() => {
        running ??= tick(deps)
          .catch((err: unknown) => logger.warn({ err }, 'newsletter tick failed'))
          .finally(() => (running = undefined));
      }, intervalMs);
      timer.unref();
    },

    /** Stops the scheduler and waits for a round under way. */
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}

export type IssueSender = ReturnType<typeof createIssueSender>;
