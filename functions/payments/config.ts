/** Payments' settings: Stripe when a key is set, else the embedded test provider (outside the embedded defaults only with PAYMENTS=test). */
import { z } from 'zod';
import { defineSettings, httpUrl } from '../platform/config/settings.ts';

export const paymentSettings = defineSettings(
  {
    /** How often the embedded test provider looks for ended periods to renew (every instance looks; each period renews once). */
    BILLING_CLOCK_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
    /** How often each instance applies the ends of grants (a comp, a gift, a trial): a fallen level shows within this on every instance. */
    GRANT_SWEEP_SECONDS: z.coerce.number().int().min(1).max(60).default(20),
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_test_…, sk_live_…)')
      .optional(),
    STRIPE_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
    /**
     * `test`: this deployment takes test payments on purpose (staging, previews): the embedded test
     * checkout without a Stripe key, or Stripe with a test key (sk_test_…). Unset: automatic (Stripe
     * with a key, the test provider only on the embedded defaults; a test key refused in production).
     */
    PAYMENTS: z.enum(['test'], { message: 'must be test, or unset' }).optional(),
    /** Where the Stripe SDK sends its calls (tests and stripe-mock); Stripe's own API when unset. */
    STRIPE_API_URL: httpUrl().optional(),
    /** Stripe Checkout as a redirect to Stripe's page (hosted) or inside our page through Stripe.js (embedded). */
    STRIPE_CHECKOUT_UI: z.enum(['hosted', 'embedded']).default('hosted'),
    STRIPE_PUBLISHABLE_KEY: z
      .string()
      .regex(/^pk_(test|live)_\w+$/, 'must be a Stripe publishable key (pk_test_…, pk_live_…)')
      .optional(),
  },
  (env) => {
    const stripe:
      | {
          secretKey: string;
          apiUrl?: string;
          /** Embedded: Checkout opens inside our page through Stripe.js, with this publishable key. */
          embeddedCheckout?: { publishableKey: string };
        }
      | undefined = env.STRIPE_SECRET_KEY
      ? {
          secretKey: env.STRIPE_SECRET_KEY,
          ...(env.STRIPE_API_URL ? { apiUrl: env.STRIPE_API_URL } : {}),
          ...(env.STRIPE_CHECKOUT_UI === 'embedded' && env.STRIPE_PUBLISHABLE_KEY
            ? { embeddedCheckout: { publishableKey: env.STRIPE_PUBLISHABLE_KEY } }
            : {}),
        }
      : undefined;
    return {
      /** How often the embedded test provider renews periods that have ended. */
      clockMs: env.BILLING_CLOCK_SECONDS * 1000,
      /** How often each instance sweeps the grants ledger for ends that have come. */
      grantSweepMs: env.GRANT_SWEEP_SECONDS * 1000,
      /** Verifies webhook signatures (Stripe's scheme); the embedded provider derives one from SECRET_KEY's store when unset. */
      ...(env.STRIPE_WEBHOOK_SECRET ? { webhookSecret: env.STRIPE_WEBHOOK_SECRET } : {}),
      ...(stripe ? { stripe } : {}),
    };
  },
);

export type PaymentSettings = ReturnType<typeof paymentSettings.read>;
