/**
 * Picks the payment provider once, at start-up, from configuration: Stripe when a secret key is
 * set, else the embedded test provider (whose webhook secret, unless configured, is derived from
 * the site's signing secret so that signed test events verify on every instance).
 */
import { createHmac } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Logger } from '../lib/logger.ts';
import { createEmbeddedProvider, type EmbeddedProvider } from './embedded/provider.ts';
import type { PaymentProvider } from './provider.ts';

export interface ProviderChoice {
  provider: PaymentProvider;
  /** Set when the embedded provider is in use: its test pages, clock-driven renewals and event delivery. */
  embedded?: EmbeddedProvider;
}

export function embeddedWebhookSecret(signingSecret: Uint8Array): string {
  return `whsec_${createHmac('sha256', signingSecret).update('embedded-billing-webhook').digest('base64url')}`;
}

export function pickPaymentProvider(
  config: Pick<Config, 'billing' | 'siteUrl'>,
  deps: { db: Db; secret: Uint8Array; logger: Logger; clock?: () => Date },
): ProviderChoice {
  const embedded = createEmbeddedProvider({
    db: deps.db,
    siteUrl: config.siteUrl,
    webhookSecret: config.billing.webhookSecret ?? embeddedWebhookSecret(deps.secret),
    logger: deps.logger,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  return { provider: embedded.provider, embedded };
}
