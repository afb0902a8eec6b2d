/**
 * Newsletter double opt-in: subscribing queues a confirmation mail (in the same transaction); only a
 * POST with the signed link's token confirms, so link scanners that follow GET links cannot. Every
 * newsletter mail carries an unsubscribe link and one-click List-Unsubscribe headers.
 */
import { z } from 'zod';
import type { Db, DbOrTx } from '../platform/db/client.ts';
import type { SubscriberRow } from './tables.ts';
import type { DeliveryReport, EmailService } from '../email/index.ts';
import { LINK_MESSAGES, type LinkProblem } from '#shared/newsletter.ts';
import { AppError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { Tokens } from '../platform/tokens.ts';
import { newsletterReaders } from '../users/index.ts';
import { batchIssue } from './issues/sending.ts';
import { createIssueStore } from './issues/store.ts';
import { createNewsletterStore } from './store.ts';

const CONFIRM_TTL_SECONDS = 7 * 24 * 3600;

/** What an issue copy's unsubscribe token names: the issue and the (lower-case) address. */
const CopyClaims = z.object({ i: z.uuid(), a: z.string().min(3).max(254) });

/** A confirmation or unsubscribe link that cannot be used; `problem` picks the page's message. */
export class NewsletterLinkError extends AppError {
  readonly problem: LinkProblem;
  constructor(problem: LinkProblem) {
    super('bad_request', LINK_MESSAGES[problem]);
    this.problem = problem;
  }
}

export interface NewsletterServiceDeps {
  db: Db;
  outbox: EmailService;
  tokens: Tokens;
  siteUrl: string;
  logger: Logger;
}

async function links({ tokens, siteUrl }: NewsletterServiceDeps, subscriber: SubscriberRow) {
  const unsubscribe = await tokens.sign('newsletter-unsubscribe', { sub: subscriber.id });
  const confirm = await tokens.sign('newsletter-confirm', { sub: subscriber.id, v: subscriber.tokenVersion }, CONFIRM_TTL_SECONDS);
  return {
    confirmUrl: `${siteUrl}/newsletter/confirm?token=${confirm}`,
    unsubscribeUrl: `${siteUrl}/newsletter/unsubscribe?token=${unsubscribe}`,
    oneClickUrl: `${siteUrl}/api/newsletter/unsubscribe?token=${unsubscribe}`,
  };
}

async function subscriberFrom(
  { db, tokens }: NewsletterServiceDeps,
  purpose: 'newsletter-confirm' | 'newsletter-unsubscribe',
  token: string,
) {
  const result = await tokens.verify<{ sub?: string; v?: number }>(purpose, token);
  if (!result.ok) throw new NewsletterLinkError(result.reason);
  const subscriber = result.claims.sub ? await createNewsletterStore(db).findById(result.claims.sub) : undefined;
  if (!subscriber) throw new NewsletterLinkError('invalid');
  return { subscriber, version: result.claims.v };
}

/**
 * Fails the copies of issues still queued to the address (a bounce, a complaint or an unsubscribe
 * arrived while an issue was sending), so nothing more goes to it; they count as failed.
 */
async function withdrawCopies({ outbox, logger }: NewsletterServiceDeps, tx: DbOrTx, address: string, why: string): Promise<void> {
  const withdrawn = await outbox.withdrawBulk(tx, address, `Not sent: ${why} before this copy went out`);
  if (withdrawn.length) logger.info({ copies: withdrawn.length }, 'newsletter copies withdrawn');
}

/**
 * Ends the newsletter for the address an issue's copy went to, in one transaction: for the member
 * who owns the address now (the copy's member only while their address is still this one, so a
 * changed address never unsubscribes someone else), the list entry, and counts it on that copy.
 */
async function unsubscribeCopy(deps: NewsletterServiceDeps, issueId: string, address: string): Promise<void> {
  const { db, logger } = deps;
  await db.transaction(async (tx) => {
    const readers = newsletterReaders(tx);
    const issues = createIssueStore(tx);
    const owner = (await readers.byEmails([address]))[0];
    const copy = owner ? undefined : await issues.delivery(issueId, address);
    const member = owner ?? (copy?.userId ? await readers.byId(copy.userId) : undefined);
    if (member && member.email.toLowerCase() === address) await readers.stop(member.id);
    await createNewsletterStore(tx).unsubscribeAddress(address);
    await issues.markUnsubscribed(issueId, address);
    await withdrawCopies(deps, tx, address, 'the reader unsubscribed');
  });
  logger.info({ issueId }, 'newsletter unsubscribed from an issue');
}

export function createNewsletterService(deps: NewsletterServiceDeps) {
  const { db, outbox, tokens, logger } = deps;
  return {
    /**
     * Records consent and queues the confirmation mail. Answers the same whatever the address's
     * state, so the form reveals nothing about who is subscribed; confirmed addresses get no mail.
     */
    async subscribe(email: string, source: string | null): Promise<void> {
      await db.transaction(async (tx) => {
        const store = createNewsletterStore(tx);
        let subscriber = await store.insertPending(email, source);
        if (!subscriber) {
          const existing = await store.lockByEmail(email);
          if (!existing) throw new Error(`subscriber ${email} vanished during subscribe`);
          if (existing.status === 'confirmed') return;
          subscriber = await store.renewConsent(existing, source);
        }
        await outbox.enqueue(tx, { to: email, template: 'newsletter-confirm', data: await links(deps, subscriber) });
      });
    },

    /** Confirms with the token from the confirmation link; confirming twice is harmless. */
    async confirm(token: string): Promise<'confirmed' | 'already-confirmed'> {
      const { subscriber, version } = await subscriberFrom(deps, 'newsletter-confirm', token);
      if (subscriber.status === 'confirmed') return 'already-confirmed';
      if (subscriber.status !== 'pending' || version !== subscriber.tokenVersion) throw new NewsletterLinkError('stale');
      await db.transaction(async (tx) => {
        await createNewsletterStore(tx).setStatus(subscriber.id, 'confirmed');
        await outbox.enqueue(tx, { to: subscriber.email, template: 'newsletter-welcome', data: await links(deps, subscriber) });
      });
      logger.info({ subscriberId: subscriber.id }, 'newsletter subscription confirmed');
      return 'confirmed';
    },

    /**
     * Unsubscribes with the token from any newsletter mail (the page's button and the one-click POST
     * of List-Unsubscribe-Post alike); repeating it is harmless. A list mail's token names the
     * subscriber; an issue's copy names the issue and the address, and ends the newsletter only: the
     * member's setting (through the users domain) and the list entry, and counts on that issue.
     */
    async unsubscribe(token: string): Promise<void> {
      const result = await tokens.verify<{ sub?: string; i?: unknown; a?: unknown }>('newsletter-unsubscribe', token);
      if (!result.ok) throw new NewsletterLinkError(result.reason);
      const copy = CopyClaims.safeParse(result.claims);
      if (copy.success) return unsubscribeCopy(deps, copy.data.i, copy.data.a);
      const subscriber = typeof result.claims.sub === 'string' ? await createNewsletterStore(db).findById(result.claims.sub) : undefined;
      if (!subscriber) throw new NewsletterLinkError('invalid');
      if (subscriber.status === 'unsubscribed') return;
      await db.transaction(async (tx) => {
        await createNewsletterStore(tx).setStatus(subscriber.id, 'unsubscribed');
        // A reader without an account got issues through the list alone: nothing more goes to them. A
        // member's copies are their membership's (their own setting ends those).
        if (!(await newsletterReaders(tx).byEmails([subscriber.email.toLowerCase()])).length)
          await withdrawCopies(deps, tx, subscriber.email, 'the reader unsubscribed');
      });
    },

    /**
     * A bounce or complaint the mail provider reported (the outbox's hook, in one transaction): no
     * later issue goes to the address, its copies still queued are withdrawn, and a report about an
     * issue's copy counts on that issue (once per copy, however often the provider repeats it).
     */
    async suppress(tx: DbOrTx, report: DeliveryReport): Promise<void> {
      const address = report.to.toLowerCase();
      const issues = createIssueStore(tx);
      await issues.suppress(address, report.type, report.detail);
      await withdrawCopies(deps, tx, address, `the address ${report.type}`);
      const issueId = batchIssue(report.batch);
      if (issueId) await issues.markBounced(issueId, report.emailId);
      logger.info({ reason: report.type }, 'newsletter address suppressed');
    },
  };
}

export type NewsletterService = ReturnType<typeof createNewsletterService>;
