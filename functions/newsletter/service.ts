/**
 * Newsletter double opt-in: subscribing queues a confirmation mail (in the same transaction); only a
 * POST with the signed link's token confirms, so link scanners that follow GET links cannot. Every
 * newsletter mail carries an unsubscribe link and one-click List-Unsubscribe headers.
 */
import type { Db } from '../platform/db/client.ts';
import type { SubscriberRow } from './tables.ts';
import type { EmailService } from '../email/service.ts';
import { LINK_MESSAGES, type LinkProblem } from '#shared/newsletter.ts';
import { AppError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { Tokens } from '../platform/tokens.ts';
import { createNewsletterStore } from './store.ts';

const CONFIRM_TTL_SECONDS = 7 * 24 * 3600;

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

export function createNewsletterService({ db, outbox, tokens, siteUrl, logger }: NewsletterServiceDeps) {
  async function links(subscriber: SubscriberRow) {
    const unsubscribe = await tokens.sign('newsletter-unsubscribe', { sub: subscriber.id });
    const confirm = await tokens.sign('newsletter-confirm', { sub: subscriber.id, v: subscriber.tokenVersion }, CONFIRM_TTL_SECONDS);
    return {
      confirmUrl: `${siteUrl}/newsletter/confirm?token=${confirm}`,
      unsubscribeUrl: `${siteUrl}/newsletter/unsubscribe?token=${unsubscribe}`,
      oneClickUrl: `${siteUrl}/api/newsletter/unsubscribe?token=${unsubscribe}`,
    };
  }

  async function subscriberFrom(purpose: 'newsletter-confirm' | 'newsletter-unsubscribe', token: string) {
    const result = await tokens.verify<{ sub?: string; v?: number }>(purpose, token);
    if (!result.ok) throw new NewsletterLinkError(result.reason);
    const subscriber = result.claims.sub ? await createNewsletterStore(db).findById(result.claims.sub) : undefined;
    if (!subscriber) throw new NewsletterLinkError('invalid');
    return { subscriber, version: result.claims.v };
  }

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
        await outbox.enqueue(tx, { to: email, template: 'newsletter-confirm', data: await links(subscriber) });
      });
    },

    /** Confirms with the token from the confirmation link; confirming twice is harmless. */
    async confirm(token: string): Promise<'confirmed' | 'already-confirmed'> {
      const { subscriber, version } = await subscriberFrom('newsletter-confirm', token);
      if (subscriber.status === 'confirmed') return 'already-confirmed';
      if (subscriber.status !== 'pending' || version !== subscriber.tokenVersion) throw new NewsletterLinkError('stale');
      await db.transaction(async (tx) => {
        await createNewsletterStore(tx).setStatus(subscriber.id, 'confirmed');
        await outbox.enqueue(tx, { to: subscriber.email, template: 'newsletter-welcome', data: await links(subscriber) });
      });
      logger.info({ subscriberId: subscriber.id }, 'newsletter subscription confirmed');
      return 'confirmed';
    },

    /** Unsubscribes with the token from any newsletter mail; repeating it is harmless. */
    async unsubscribe(token: string): Promise<void> {
      const { subscriber } = await subscriberFrom('newsletter-unsubscribe', token);
      if (subscriber.status !== 'unsubscribed') await createNewsletterStore(db).setStatus(subscriber.id, 'unsubscribed');
    },
  };
}

export type NewsletterService = ReturnType<typeof createNewsletterService>;
