/**
 * What the parts of the billing service share: their dependencies, the clock, our origin, and
 * whether money is real. service.ts builds it once and hands it to each part.
 */
import type { ContentService } from '../content/index.ts';
import type { EmailService } from '../email/index.ts';
import type { Db } from '../platform/db/client.ts';
import type { Logger } from '../platform/logger.ts';
import type { UserService } from '../users/index.ts';
import type { WebhookEmitter } from '../outbound/index.ts';
import type { PaymentProvider } from './provider.ts';

export interface BillingDeps {
  db: Db;
  provider: PaymentProvider;
  users: UserService;
  outbox: EmailService;
  content: ContentService;
  siteUrl: string;
  logger: Logger;
  /** Outbound webhooks: subscription, purchase and grant events, and member.updated for a moved level. */
  webhooks: WebhookEmitter;
  clock?: () => Date;
}

export interface BillingContext extends Omit<BillingDeps, 'siteUrl' | 'clock'> {
  clock: () => Date;
  /** Our site's origin: links we accept and mail all point here. */
  origin: string;
  /** No real money moves (the embedded provider, a Stripe test key): mails and the account page say so. */
  testMode: boolean;
}

/** The system's id in the audit log for changes the payment provider caused. */
export const BILLING_ACTOR = '00000000-0000-0000-0000-000000000000';

export function billingContext({ siteUrl, clock = () => new Date(), ...deps }: BillingDeps): BillingContext {
  return { ...deps, clock, origin: new URL(siteUrl).origin, testMode: deps.provider.mode === 'test' };
}
