/**
 * Picks the payment provider once, at start-up, from configuration: Stripe when a secret key is
 * set, else the embedded test provider (whose webhook secret, unless configured, is derived from
 * the site's signing secret so that signed test events verify on every instance). The Stripe SDK
 * (225 modules, a tenth of a start) is loaded only when Stripe is the provider in use.
 */
import { createHmac } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Db } from '../platform/db/client.ts';
import { AppError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
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

export async function pickPaymentProvider(
  config: Pick<Config, 'billing' | 'siteUrl'>,
  deps: { db: Db; secret: Uint8Array; logger: Logger; clock?: () => Date },
): Promise<ProviderChoice> {
  const { stripe } = config.billing;
  if (stripe) {
    const [{ createStripeProvider, stripeEndpoint }, { isStripeError }] = await Promise.all([
      import('./stripe.ts'),
      import('./stripe-client.ts'),
    ]);
    // The config refuses a key without a webhook secret.
    const provider = createStripeProvider({
      secretKey: stripe.secretKey,
      webhookSecret: config.billing.webhookSecret ?? '',
      ...(stripe.apiUrl ? stripeEndpoint(stripe.apiUrl) : {}),
      ...(stripe.embeddedCheckout ? { embeddedCheckout: stripe.embeddedCheckout } : {}),
      logger: deps.logger,
    });
    return { provider: answeringUnavailable(provider, deps.logger, isStripeError) };
  }
  const embedded = createEmbeddedProvider({
    db: deps.db,
    siteUrl: config.siteUrl,
    webhookSecret: config.billing.webhookSecret ?? embeddedWebhookSecret(deps.secret),
    logger: deps.logger,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  return { provider: embedded.provider, embedded };
}

/**
 * The provider with its failures (Stripe unreachable, rate-limited, refusing our key or a call: what
 * `isProviderError` recognises) turned into 503 answers: the client may retry, and nothing it sent
 * was wrong. The cause is logged.
 */
export function answeringUnavailable(
  provider: PaymentProvider,
  logger: Logger,
  isProviderError: (err: unknown) => err is { type: string; code?: string; requestId?: string },
): PaymentProvider {
  const guarded = { ...provider };
  for (const [name, method] of Object.entries(provider)) {
    if (typeof method !== 'function' || name === 'verifyWebhook') continue;
    Object.assign(guarded, {
      [name]: async (...args: unknown[]) => {
        try {
          return await (method as (...a: unknown[]) => Promise<unknown>).apply(provider, args);
        } catch (err) {
          if (!isProviderError(err)) throw err;
          logger.error({ err, call: name, type: err.type, code: err.code, requestId: err.requestId }, 'stripe call failed');
          throw new AppError('unavailable', 'The payment service is not reachable. Please try again shortly.');
        }
      },
    });
  }
  return guarded;
}

// The front door (issue 37): what other domains import from this one.
export { CURRENCY } from './catalog.ts';
export type { AccessGrantRow } from './grants/tables.ts';
export { GRANTING_STATUSES } from './provider.ts';
export type { RevenueHistory, RevenueMonth } from './revenue/history.ts';
export type { PurchaseRow, SubscriptionRow } from './tables.ts';
