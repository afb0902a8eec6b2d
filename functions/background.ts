/**
 * The background work as bounded rounds, for serverless functions, where nothing runs between
 * requests: a scheduled function runs one round a minute (netlify/functions/background.ts), and the
 * API function drains the outbox after answering a write (serverless.ts), so a confirmation, a reset
 * link or a receipt reaches SMTP seconds after the request, not at the next minute. The long-lived
 * server runs the same parts on its timers (`services.start()`). Every part claims its rows (the
 * outbox's leases, SKIP LOCKED, claim columns), so two overlapping rounds, or a round beside the
 * server's timers, share the work and never do one piece twice.
 */
import type { Services } from './compose.ts';
import type { Logger } from './platform/logger.ts';

/**
 * The parts of a round, in order: the grants ledger's ends first (so the newsletter's and the events'
 * cuts read levels that are due to fall already fallen), then what queues mail, then the outbox that sends it,
 * then the webhooks those changes queued.
 */
const PARTS = ['grants', 'eventNotices', 'newsletter', 'communityMail', 'billingClock', 'prune', 'outbox', 'webhooks'] as const;
export type RoundPart = (typeof PARTS)[number];

/** What a round did: a count per part, 'failed' (logged), or 'skipped' when its time ran out first. */
export type RoundReport = Record<RoundPart, number | 'failed' | 'skipped'>;

/**
 * Sends queued mail until none is due or `deadline` (a Date.now() time) passes; answers how many
 * messages it claimed. A batch under way when the deadline passes is finished (its sends are bounded
 * by the transport's own timeouts); what is left waits for the next drain.
 */
export async function drainOutbox(services: Pick<Services, 'mail'>, deadline: number): Promise<number> {
  let claimed = 0;
  while (Date.now() < deadline) {
    const batch = await services.mail.worker.runOnce();
    if (batch === 0) break;
    claimed += batch;
  }
  return claimed;
}

/** One round of every part, each within what is left of `budgetMs` (a scheduled function's time limit, less a margin). */
export async function runBackgroundRound(services: Services, logger: Logger, budgetMs: number): Promise<RoundReport> {
  const deadline = Date.now() + budgetMs;
  const runs: Record<RoundPart, () => Promise<number | void>> = {
    eventNotices: () => services.eventNotices.tick(),
    newsletter: () => services.newsletterSender.tick(),
    communityMail: () => services.communityNotifications.mails.tick(),
    // The embedded test provider's renewals and period ends (Stripe runs its own clock).
    billingClock: async () => services.embeddedBilling?.advance() ?? 0,
    // Grants whose end has come (the level derived again, their mails), trials' notices, offers given up.
    grants: () => services.billing.tick(),
    prune: () => services.prune(),
    outbox: () => drainOutbox(services, deadline),
    // Outbound webhooks due now (each POST bounded by its timeout; what is left waits for the next round).
    webhooks: () => services.webhooks.worker.drain(deadline),
  };
  const report = {} as RoundReport;
  for (const part of PARTS) {
    if (Date.now() >= deadline) {
      report[part] = 'skipped';
      continue;
    }
    try {
      report[part] = (await runs[part]()) ?? 0;
    } catch (err) {
      logger.warn({ err, part }, 'a background round part failed; the next round tries again');
      report[part] = 'failed';
    }
  }
  return report;
}
