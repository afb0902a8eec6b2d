/**
 * The composition's lifecycle: the demo accounts' seed, connecting the embedded provider's events,
 * the hourly prune, and `start()` and `close()`, which start and stop the background work in order.
 */
import type { AuthService } from '../auth/service.ts';
import { seedDemoCommunity } from '../community/demo.ts';
import type { NotificationService } from '../community/notifications/service.ts';
import type { Config } from '../config.ts';
import type { BodyRenderer } from '../content/body-renderer.ts';
import type { EventNotices } from '../events/notices.ts';
import { seedDemoNewsletter } from '../newsletter/demo.ts';
import type { IssueSender } from '../newsletter/issues/sending.ts';
import type { OutboundService } from '../outbound/service.ts';
import type { EmbeddedProvider } from '../payments/embedded/provider.ts';
import type { BillingService } from '../payments/service.ts';
import type { RateLimitService } from '../platform/abuse/service.ts';
import { pruneChanges } from '../platform/changes/store.ts';
import type { Database } from '../platform/db/client.ts';
import type { IdempotencyLedger } from '../platform/idempotency/ledger.ts';
import type { Logger } from '../platform/logger.ts';
import type { WebhookInbox } from '../platform/webhooks/index.ts';
import { closePagefind } from '../search/index.ts';
import type { DirectUploads } from '../uploads/direct.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, demoPasswordHash } from '../users/demo.ts';
import type { UserService } from '../users/service.ts';
import type { MailDelivery } from './mail.ts';

/** Everything the background work starts, stops or prunes, and what closes after it. */
export interface LifecycleDeps {
  config: Config;
  logger: Logger;
  db: Database;
  /** Whether `close()` closes the database (createServices opened it, the caller passed none). */
  ownsDatabase: boolean;
  auth: AuthService;
  users: UserService;
  inbox: WebhookInbox;
  billing: BillingService;
  /** The embedded test provider, when it is the one in use. */
  embeddedBilling: EmbeddedProvider | undefined;
  mail: MailDelivery;
  limiter: RateLimitService;
  directUploads: DirectUploads;
  idempotency: IdempotencyLedger;
  webhooks: OutboundService;
  eventNotices: EventNotices;
  newsletterSender: IssueSender;
  communityNotifications: NotificationService;
  memberRenderer: BodyRenderer;
  staffRenderer: BodyRenderer;
  /** The content, profile and community channels' listeners, stopped by `close()` in that order. */
  unlistenContent: () => Promise<void>;
  unlistenProfiles: () => Promise<void>;
  unlistenCommunity: () => Promise<void>;
}

/**
 * The demo accounts (embedded defaults, previews): inserts that ignore an existing address, so
 * instances starting together, or a function instance at each start, make each account once.
 */
export async function seedDemo({ config, db, auth, users }: Pick<LifecycleDeps, 'config' | 'db' | 'auth' | 'users'>): Promise<void> {
  if (!config.auth.seedDemo || config.auth.hosted) return;
  const ids = await auth.createConfirmedUsers(DEMO_ACCOUNTS, DEMO_PASSWORD, demoPasswordHash(config.auth.bcryptCost));
  const seeded = DEMO_ACCOUNTS.map((account, i) => ({ ...account, id: ids[i]! }));
  for (const account of seeded) await users.assign(account.id, account.role, account.accessLevel);
  // The community's demo categories and threads, written by those accounts (their HTML rendered
  // ahead: community/demo-html.ts), and two past newsletter issues.
  await seedDemoCommunity(db.db, seeded);
  await seedDemoNewsletter(db.db, seeded.find((account) => account.role === 'admin')!.id);
}

/**
 * Hands the embedded provider's stored events (checkouts, renewals) to the billing handler, the
 * one Stripe's webhooks reach, from now on: what an instance answering requests needs even when it
 * runs no background work (a serverless function). `start()` does it too. Once: later calls share
 * the first.
 */
export function eventConnector({ embeddedBilling, inbox, billing }: Pick<LifecycleDeps, 'embeddedBilling' | 'inbox' | 'billing'>) {
  let eventsConnected: Promise<void> | undefined;
  return (): Promise<void> =>
    (eventsConnected ??= embeddedBilling
      ? embeddedBilling.connect((event) => inbox.receive('payments', event, () => billing.handleEvent(event)))
      : Promise.resolve());
}

/** Deletes what has outlived its use: rate-limit windows, abandoned direct uploads, idempotency keys past their day, the change log's old rows. */
export async function prune(deps: Pick<LifecycleDeps, 'db' | 'logger' | 'limiter' | 'directUploads' | 'idempotency' | 'webhooks'>) {
  const { db, logger, limiter, directUploads, idempotency, webhooks } = deps;
  await Promise.all([
    limiter.prune().catch((err: unknown) => logger.warn({ err }, 'pruning rate limits failed')),
    directUploads.prune().catch((err: unknown) => logger.warn({ err }, 'pruning direct uploads failed')),
    idempotency.sweep().catch((err: unknown) => logger.warn({ err }, 'sweeping idempotency keys failed')),
    pruneChanges(db.db).catch((err: unknown) => logger.warn({ err }, 'pruning the change log failed')),
    webhooks.prune().catch((err: unknown) => logger.warn({ err }, 'pruning the webhook delivery log failed')),
  ]);
}

/** The services' lifecycle: the demo seed, the embedded provider's events, the prune, `start()` and `close()`. */
export function createLifecycle(deps: LifecycleDeps) {
  const { config, logger, db, billing, mail, webhooks, eventNotices, newsletterSender, communityNotifications } = deps;
  let pruning: NodeJS.Timeout | undefined;
  let renew: NodeJS.Timeout | undefined;
  let grantSweep: NodeJS.Timeout | undefined;
  let started = false;
  const connectEvents = eventConnector(deps);
  return {
    connectEvents,
    prune: (): Promise<void> => prune(deps),
    /** The demo accounts, community and newsletter issues where the configuration wants them (a function instance's start). */
    seedDemo: (): Promise<void> => seedDemo(deps),
    /**
     * Starts background work: the outbox worker (unless EMAIL_WORKER=false), the events' reminder tick,
     * the newsletter's scheduler and the community's reply mails (every instance: they only queue mail)
     * and the hourly prune of rate limits, abandoned direct uploads, idempotency keys past their day
     * and the change log.
     */
    async start() {
      if (started) return;
      started = true;
      await seedDemo(deps);
      if (config.email.worker) await mail.worker.start();
      // Every instance ticks: each reminder is claimed once whoever looks (functions/events/notices.ts).
      eventNotices.start();
      // Every instance ticks too: a due issue is claimed once whoever looks (functions/newsletter/issues/sending.ts).
      newsletterSender.start();
      // Every instance mails followers too: each follow row is claimed once (functions/community/notifications/round.ts).
      communityNotifications.mails.start();
      // Every instance delivers webhooks too: each delivery is leased to one worker (functions/outbound/worker.ts).
      webhooks.worker.start();
      pruning = setInterval(() => void prune(deps), 3_600_000);
      pruning.unref();
      // Every instance sweeps: each grant's end is applied once, under its member's lock (payments/grants/sweep.ts).
      grantSweep = setInterval(
        () => void billing.tick().catch((err: unknown) => logger.warn({ err }, 'the billing clock (grants, trials, offers) failed')),
        config.billing.grantSweepMs,
      );
      grantSweep.unref();
      // The embedded provider's events reach the same handler as Stripe's webhooks; its subscriptions renew on the minute.
      await connectEvents();
      const embedded = deps.embeddedBilling;
      if (embedded) {
        renew = setInterval(
          () => void embedded.advance().catch((err: unknown) => logger.warn({ err }, 'embedded billing renewal failed')),
          config.billing.clockMs,
        );
        renew.unref();
      }
    },
    /**
     * Stops background work (sends in flight finish), closes the transport, stops listening and
     * closes the database when this call opened it. Call after the HTTP server has drained, so
     * mail queued by the last requests is still sent.
     */
    async close() {
      clearInterval(pruning);
      clearInterval(renew);
      clearInterval(grantSweep);
      await deps.embeddedBilling?.stop();
      await eventNotices.stop();
      await newsletterSender.stop();
      await communityNotifications.mails.stop();
      await webhooks.worker.stop();
      await deps.memberRenderer.close();
      await closePagefind().catch(() => undefined);
      await deps.staffRenderer.close();
      await mail.stop().catch((err: unknown) => logger.warn({ err }, 'mail shutdown failed'));
      await deps.unlistenContent().catch(() => undefined);
      await deps.unlistenProfiles().catch(() => undefined);
      await deps.unlistenCommunity().catch(() => undefined);
      if (deps.ownsDatabase) await db.close();
    },
  };
}
