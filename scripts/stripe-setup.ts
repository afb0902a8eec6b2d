/**
 * `npm run stripe:setup`: creates the catalog at Stripe from src/lib/shared/pricing.ts, one product per paid
 * tier with its monthly and yearly prices under our lookup keys (subscriber_monthly…). Safe to run
 * again: prices are looked up by key first; a price whose amount changed in pricing.ts gets a new
 * price that takes the key over (prices cannot be edited). Then prints the steps left to do by hand.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Stripe from 'stripe';
import { CURRENCY } from '../functions/payments/catalog.ts';
import { createStripeClient, lookupKeyFor, stripeEndpoint } from '../functions/payments/stripe.ts';
import { isPaid, PRICE_TIERS, tierIdFor, yearlyPriceCents, type BillingInterval, type PriceTier } from '#shared/pricing.ts';

export interface SetupReport {
  /** Every plan price, as Stripe has it now. */
  prices: { lookupKey: string; id: string; unitAmount: number; interval: BillingInterval }[];
  createdProducts: string[];
  createdPrices: string[];
}

const WEBHOOK_EVENTS = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
  // Plan changes held for the period end (ours, or made in the customer portal).
  'subscription_schedule.created',
  'subscription_schedule.updated',
  'subscription_schedule.released',
  'subscription_schedule.canceled',
];

/** The tier's product at Stripe: the one its prices use, else one tagged with the tier id, else a new one. */
async function productFor(stripe: Stripe, tier: PriceTier, existing: Stripe.Price[], report: SetupReport): Promise<string> {
  const fromPrice = existing.find((p) => typeof p.product === 'string' || !p.product.deleted)?.product;
  if (fromPrice) return typeof fromPrice === 'string' ? fromPrice : fromPrice.id;
  for await (const product of stripe.products.list({ active: true, limit: 100 })) {
    if (product.metadata.tierId === tier.id) return product.id;
  }
  const product = await stripe.products.create({ name: tier.name, metadata: { tierId: tier.id } });
  report.createdProducts.push(product.id);
  return product.id;
}

/** Creates what is missing of the tiers' plans at Stripe and answers the plan prices. */
export async function setupStripe(stripe: Stripe, tiers: readonly PriceTier[] = PRICE_TIERS): Promise<SetupReport> {
  const report: SetupReport = { prices: [], createdProducts: [], createdPrices: [] };
  for (const tier of tiers.filter(isPaid)) {
    const plans = (['month', 'year'] as const).map((interval) => ({
      interval,
      lookupKey: lookupKeyFor(tierIdFor(tier, interval)),
      amount: interval === 'year' ? yearlyPriceCents(tier.price) : Math.round(tier.price * 100),
    }));
    const { data: existing } = await stripe.prices.list({ lookup_keys: plans.map((p) => p.lookupKey), active: true });
    const product = await productFor(stripe, tier, existing, report);
    for (const plan of plans) {
      let price = existing.find((p) => p.lookup_key === plan.lookupKey);
      if (!price || price.unit_amount !== plan.amount || price.currency !== CURRENCY || price.recurring?.interval !== plan.interval) {
        price = await stripe.prices.create({
          product,
          unit_amount: plan.amount,
          currency: CURRENCY,
          recurring: { interval: plan.interval },
          lookup_key: plan.lookupKey,
          // Moves the key off an older price (archived, or of another amount).
          transfer_lookup_key: true,
        });
        report.createdPrices.push(price.id);
      }
      report.prices.push({ lookupKey: plan.lookupKey, id: price.id, unitAmount: plan.amount, interval: plan.interval });
    }
  }
  return report;
}

async function main(): Promise<void> {
  const root = path.resolve(import.meta.dirname, '..');
  if (existsSync(path.join(root, '.env'))) process.loadEnvFile(path.join(root, '.env'));
  const secretKey = process.env.STRIPE_SECRET_KEY?.trim();
  if (!secretKey) {
    console.error(
      'STRIPE_SECRET_KEY is not set. Put your secret key (sk_test_… for test mode, sk_live_… for live) in the environment or .env, then run this again.',
    );
    process.exit(1);
  }
  const apiUrl = process.env.STRIPE_API_URL;
  const stripe = createStripeClient({ secretKey, ...(apiUrl ? stripeEndpoint(apiUrl) : {}) });
  const report = await setupStripe(stripe);
  console.log(`Stripe catalog ready (${secretKey.startsWith('sk_live_') ? 'live' : 'test'} mode):`);
  for (const p of report.prices)
    console.log(`  ${p.lookupKey.padEnd(20)} ${p.id}  ${(p.unitAmount / 100).toFixed(2)} ${CURRENCY}/${p.interval}`);
  console.log(`Created ${report.createdProducts.length} product(s) and ${report.createdPrices.length} price(s).`);
  const site = (process.env.SITE_URL ?? 'https://<your site>').replace(/\/$/, '');
  console.log(`
Next steps:
  1. Webhook: in the Dashboard (Developers > Webhooks) add an endpoint at
       ${site}/api/payments/stripe/webhook
     with API version ${Stripe.API_VERSION} and the events
       ${WEBHOOK_EVENTS.join(', ')}
     then set STRIPE_WEBHOOK_SECRET to its signing secret (whsec_…).
     Locally: stripe listen --forward-to localhost:${process.env.PORT ?? 3000}/api/payments/stripe/webhook prints its own whsec_.
  2. Customer portal: in the Dashboard (Settings > Billing > Customer portal) allow cancelling at the
     period end and switching between the plans above, as the site changes plans: prorate and invoice
     upgrades immediately, and schedule downgrades (shorter interval, lower amount) for the end of the
     billing period; save it in test and in live mode.
  3. Optionally limit customers to one subscription (Checkout settings).`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error('Stripe setup failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
