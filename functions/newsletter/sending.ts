/**
 * Sending an issue: exactly one copy per recipient, cut at their level, and an exact account of every
 * issue. In ONE transaction the issue moves to `sending` with a conditional update (only from draft or
 * scheduled: a retried or concurrent send, a second tick or another instance finds nothing to claim
 * and writes nothing), the audience is resolved and de-duplicated by address (a member who is also on
 * the list gets one copy, cut at their member level), suppressed addresses and members who turned the
 * newsletter off get a copy row marked suppressed and no mail, and every other copy is written to the
 * outbox (each cut rendered once; the database fills in each recipient's unsubscribe token, in
 * multi-row inserts) and to `newsletter_deliveries` (primary key (issue, address)). From there
 * the outbox's guarantees hold per copy (leases, retries with backoff, a killed worker's mail
 * reclaimed). The account is read live from the copies and their outbox rows.
 */
import { effectiveLevel } from '#shared/access.ts';
import type { Db, DbOrTx } from '../platform/db/client.ts';
import type { EmailService } from '../email/service.ts';
import type { Logger } from '../platform/logger.ts';
import type { Tokens } from '../platform/tokens.ts';
import { newsletterReaders } from '../users/newsletter-readers.ts';
import { copyTemplate, type CopyLevel, type CopyTemplate } from './issue-mail.ts';
import { createIssueStore, type NewDelivery } from './issues/store.ts';
import { createNewsletterStore } from './store.ts';
import type { IssueRow } from './tables.ts';

/** An issue's account: recipients = sent + failed + suppressed + pending, always; bounced and unsubscribed after. */
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

/** One recipient before their copy is written. */
interface Recipient {
  address: string;
  userId: string | null;
  level: CopyLevel;
  suppressed: boolean;
}

/** Copies of one cut written per statement (the database fills each recipient's link into the cut). */
const BATCH = 1000;

export interface IssueSenderDeps {
  db: Db;
  outbox: EmailService;
  tokens: Tokens;
  siteUrl: string;
  /** Copies of one issue handed to the worker per minute (NEWSLETTER_RATE_PER_MINUTE); undefined: no cap. */
  ratePerMinute?: number | undefined;
  logger: Logger;
}

/** Who gets the issue, one entry per lower-case address, in a stable order. */
async function resolveAudience(tx: DbOrTx, issue: IssueRow): Promise<Recipient[]> {
  const readers = newsletterReaders(tx);
  const byAddress = new Map<string, Recipient>();
  const levels = issue.audience.filter((a) => a !== 'newsletter');
  for (const member of await readers.atLevels(levels)) {
    byAddress.set(member.email.toLowerCase(), {
      address: member.email.toLowerCase(),
      userId: member.id,
      level: effectiveLevel(member),
      suppressed: false,
    });
  }
  if (issue.audience.includes('newsletter')) {
    const list = (await createNewsletterStore(tx).confirmedAddresses()).map((a) => a.toLowerCase()).filter((a) => !byAddress.has(a));
    const members = new Map((await readers.byEmails(list)).map((m) => [m.email.toLowerCase(), m]));
    for (const address of list) {
      const member = members.get(address);
      // A member on the list gets the copy of their level; one who turned the newsletter off gets none.
      byAddress.set(
        address,
        member
          ? { address, userId: member.id, level: effectiveLevel(member), suppressed: member.newsletter === false }
          : { address, userId: null, level: null, suppressed: false },
      );
    }
  }
  const suppressed = await createIssueStore(tx).suppressedAddresses();
  const recipients = [...byAddress.values()].sort((a, b) => (a.address < b.address ? -1 : 1));
  for (const r of recipients) if (suppressed.has(r.address)) r.suppressed = true;
  return recipients;
}

export function createIssueSender({ db, outbox, tokens, siteUrl, ratePerMinute, logger }: IssueSenderDeps) {
  /** Writes every copy of a claimed issue inside `tx`; answers how many recipients it has. */
  async function writeCopies(tx: DbOrTx, issue: IssueRow): Promise<number> {
    const recipients = await resolveAudience(tx, issue);
    const cuts = new Map<CopyLevel, CopyTemplate>();
    const cut = (level: CopyLevel) => {
      if (!cuts.has(level)) cuts.set(level, copyTemplate(issue, level, siteUrl));
      return cuts.get(level)!;
    };
    const store = createIssueStore(tx);
    const start = Date.now();
    const mailed = recipients.filter((r) => !r.suppressed);
    // A rate spreads the copies over minutes, in the recipients' order; the worker takes each when it is due.
    const slots = new Map(mailed.map((r, n) => [r.address, ratePerMinute ? Math.floor(n / ratePerMinute) : 0]));
    const emailIds = new Map<string, string>();
    for (const level of new Set(mailed.map((r) => r.level))) {
      const { rendered, placeholder } = cut(level);
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
        const ids = await outbox.enqueueCopies(tx, 'newsletter-issue', rendered, placeholder, copies);
        batch.forEach((r, n) => emailIds.set(r.address, ids[n]!));
      }
    }
    const rows: NewDelivery[] = recipients.map((r) => ({
      issueId: issue.id,
      address: r.address,
      userId: r.userId,
      level: r.level,
      suppressed: r.suppressed,
      emailId: emailIds.get(r.address) ?? null,
    }));
    await store.insertDeliveries(rows);
    await store.setRecipients(issue.id, recipients.length);
    return recipients.length;
  }

  /** Claims the issue with `claim` and writes its copies, all in one transaction; undefined when there was nothing to claim. */
  async function sendClaimed(claim: (tx: DbOrTx) => Promise<IssueRow | undefined>): Promise<IssueRow | undefined> {
    const started = Date.now();
    const result = await db.transaction(async (tx) => {
      const issue = await claim(tx);
      if (!issue) return undefined;
      return { issue, recipients: await writeCopies(tx, issue) };
    });
    if (result)
      logger.info(
        { issueId: result.issue.id, recipients: result.recipients, ms: Date.now() - started },
        'newsletter issue written to the outbox',
      );
    return result?.issue;
  }

  /** The issue's account, live: from its copies and their outbox rows. */
  async function stats(issue: IssueRow): Promise<IssueStats> {
    if (issue.status === 'draft' || issue.status === 'scheduled' || issue.status === 'cancelled') return NO_STATS;
    const store = createIssueStore(db);
    const [copies, mail, orphans] = await Promise.all([
      store.copyCounts(issue.id),
      outbox.tally(store.copyEmailIds(issue.id)),
      store.copiesWithoutMail(issue.id),
    ]);
    const failed = mail.failed + orphans;
    // Every copy is exactly one of these: the identity holds by construction, and tests compare it with the audience.
    const recipients = copies.suppressed + mail.sent + failed + mail.queued;
    return {
      recipients,
      sent: mail.sent,
      failed,
      suppressed: copies.suppressed,
      pending: mail.queued,
      bounced: mail.bounced,
      unsubscribed: copies.unsubscribed,
    };
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  /** One scheduler round (see `tick` below); a round still running is not started twice. */
  async function tick(): Promise<void> {
    while (await sendClaimed((tx) => createIssueStore(tx).claimDue()));
    const store = createIssueStore(db);
    for (const id of await store.sendingIds()) {
      const issue = await store.byId(id);
      if (issue && (await stats(issue)).pending === 0) await store.markSent(id);
    }
  }

  return {
    /** Sends a draft or scheduled issue now; undefined when it is neither (already sent, sending, or gone). */
    sendNow: (id: string) => sendClaimed((tx) => createIssueStore(tx).claimForSending(id)),

    stats,

    /**
     * The scheduler's round (every 30 s on every instance): sends each scheduled issue that is due,
     * one transaction each (SKIP LOCKED: instances share the work, never an issue), then marks sent
     * the issues whose copies have all left the queue.
     */
    tick,

    /** Runs `tick` every `intervalMs` (services.start(), on every instance). */
    start(intervalMs = 30_000): void {
      if (timer) return;
      timer = setInterval(() => {
        running ??= tick()
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
