/**
 * The payments domain's routes, each prefix mounted once (functions/api.ts). /api/payments: checkout,
 * subscriptions and the provider's webhook at the spec's paths (routes.ts), gifts (gifts/routes.ts),
 * the member's grants (grants/routes.ts), a sign-up offer's terms (offers/routes.ts) and, with the
 * embedded provider, its test pages' API (embedded/routes.ts). Under the admin mount
 * (/api/admin/payments): comps and a member's grants, and the Offers tab.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/http/context.ts';
import type { WebhookInbox } from '../platform/webhooks/index.ts';
import type { Guards } from '../users/index.ts';
import type { EmbeddedProvider } from './embedded/provider.ts';
import { createTestBillingRoutes } from './embedded/routes.ts';
import { createGiftRoutes, createMyGiftRoutes } from './gifts/routes.ts';
import { createCompRoutes, createMyGrantRoutes } from './grants/routes.ts';
import { createOfferAdminRoutes, createPublicOfferRoutes } from './offers/routes.ts';
import { createPaymentRoutes } from './routes.ts';
import type { BillingService } from './service.ts';

export interface PaymentsApiDeps {
  billing: BillingService;
  inbox: WebhookInbox;
  guards: Guards;
  /** Set when the embedded test provider is in use: its checkout and portal pages' API. */
  embedded?: Pick<EmbeddedProvider, 'testPages'>;
}

/** /api/payments. Its parts first: the payment routes' own guard (`identify` for what follows it) must not run for them. */
export function createPaymentsApi({ billing, inbox, guards, embedded }: PaymentsApiDeps) {
  const api = new Hono<AppEnv>()
    .route('/gifts', createMyGiftRoutes({ billing, guards }))
    .route('/gifts', createGiftRoutes({ billing, guards }))
    .route('/grants', createMyGrantRoutes({ access: billing.access, guards }))
    .route('/offers', createPublicOfferRoutes({ offers: billing.offers }));
  if (embedded) api.route('/test', createTestBillingRoutes(embedded));
  return api.route('/', createPaymentRoutes({ billing, inbox, guards }));
}

/** /api/admin/payments: comps and a member's grants (the member's card), the Offers tab. Admins only. */
export function createPaymentsAdminApi({ billing, guards }: Pick<PaymentsApiDeps, 'billing' | 'guards'>) {
  return new Hono<AppEnv>()
    .route('/members', createCompRoutes({ access: billing.access, guards }))
    .route('/offers', createOfferAdminRoutes({ offers: billing.offers, guards }));
}
