/**
 * The composition's billing part: the webhook inbox, the payment provider (Stripe, or the embedded
 * test provider), billing, the members' business tools, and the admin dashboard's and revenue
 * analytics' services, which read them.
 */
import { createAdminService } from '../admin/service.ts';
import { createAnalyticsService } from '../analytics/service.ts';
import type { AuthService } from '../auth/service.ts';
import type { Config } from '../config.ts';
import type { ContentService } from '../content/service.ts';
import type { EmailService } from '../email/service.ts';
import { createMembers } from '../members/index.ts';
import type { NewsletterService } from '../newsletter/service.ts';
import type { WebhookEmitter } from '../outbound/port.ts';
import { pickPaymentProvider } from '../payments/index.ts';
import { createBillingService } from '../payments/service.ts';
import type { Database } from '../platform/db/client.ts';
import type { Logger } from '../platform/logger.ts';
import { createWebhookInbox } from '../platform/webhooks/index.ts';
import type { UserService } from '../users/service.ts';
import type { ServiceOptions } from './options.ts';

/** What billing and the members' tools are built on. */
export interface BillingDeps {
  db: Database;
  config: Config;
  logger: Logger;
  /** The signing secret (the embedded provider's webhook secret derives from it). */
  secret: Uint8Array;
  outbox: EmailService;
  content: ContentService;
  users: UserService;
  /** The embedded auth service's bulk accounts, for the members file's import. */
  auth: AuthService;
  /** Members an import subscribes join the list. */
  newsletter: NewsletterService;
  webhooks: WebhookEmitter;
  /** The clocks tests move. */
  options: Pick<ServiceOptions, 'billingClock' | 'billingServiceClock'>;
}

/** Picks the payment provider and builds billing, the members' tools, admin and analytics. */
export async function buildBilling({
  db,
  config,
  logger,
  secret,
  outbox,
  content,
  users,
  auth,
  newsletter,
  webhooks,
  options,
}: BillingDeps) {
  const inbox = createWebhookInbox(db.db, logger);
  const payments = await pickPaymentProvider(config, {
    db: db.db,
    secret,
    logger,
    ...(options.billingClock ? { clock: options.billingClock } : {}),
  });
  const billing = createBillingService({
    db: db.db,
    provider: payments.provider,
    users,
    outbox,
    content,
    siteUrl: config.siteUrl,
    logger,
    webhooks,
    ...(options.billingServiceClock ? { clock: options.billingServiceClock } : {}),
  });
  const members = createMembers({
    db: db.db,
    users,
    importAccounts: config.auth.hosted ? undefined : (tx, list) => auth.importAccounts(tx, list),
    addComp: (tx, actorId, userId, comp) => billing.access.comps.importComp(tx, actorId, userId, comp),
    subscribe: (email, source) => newsletter.subscribe(email, source),
    webhooks,
  });
  return {
    inbox,
    billing,
    /** The admin dashboard's member search, audit log and overview figures. */
    admin: createAdminService({ db: db.db, roster: members.members }),
    /** The members' business tools: filters, labels, segments, the CSV import and API keys. */
    members,
    /** Revenue analytics over payments' revenue history (the admin overview's Revenue section). */
    analytics: createAnalyticsService({ history: billing.revenue }),
    /** The embedded test provider (checkout and portal pages, the clock), when it is the one in use. */
    embeddedBilling: payments.embedded,
  };
}
