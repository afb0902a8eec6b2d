/**
 * The embedded test provider's own API (under /api/payments/test), behind its checkout and portal
 * pages: what Stripe's hosted pages do on Stripe's side. The session id in the path is the
 * capability, as with Stripe's hosted pages; no member token is needed. Mounted only when the
 * embedded provider is the one in use.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { AppError } from '../../platform/errors.ts';
import type { AppContext, AppEnv } from '../../platform/http/context.ts';
import { readBody } from '../../platform/http/request.ts';
import type { EmbeddedProvider } from './provider.ts';

const Card = z.object({ cardNumber: z.string().max(40), expiry: z.string().max(10), cvc: z.string().max(10) }).strict();
/** What the portal page does to a subscription; `advance` is the test clock (renew now, as at the period end). */
const PortalAction = z
  .object({ action: z.enum(['cancel', 'resume', 'switch', 'advance']), priceId: z.string().max(100).optional() })
  .strict();

function id(c: AppContext, name: string): string {
  const value = c.req.param(name) ?? '';
  if (!/^[\w-]{1,100}$/.test(value)) throw new AppError('not_found', 'Not found');
  return value;
}

export function createTestBillingRoutes({ testPages }: Pick<EmbeddedProvider, 'testPages'>) {
  return new Hono<AppEnv>()
    .get('/checkout/:id', async (c) => c.json(await testPages.describeCheckout(id(c, 'id'))))
    .post('/checkout/:id/pay', async (c) => c.json(await testPages.pay(id(c, 'id'), await readBody(c, Card))))
    .get('/portal/:id', async (c) => c.json(await testPages.describePortal(id(c, 'id'))))
    .post('/portal/:id/subscriptions/:subscriptionId', async (c) => {
      const subscription = await testPages.portalAction(id(c, 'id'), id(c, 'subscriptionId'), await readBody(c, PortalAction));
      return c.json({ subscription });
    });
}

/** The test provider's API as the browser's typed client (hono/client) sees it. */
export type TestBillingRoutes = ReturnType<typeof createTestBillingRoutes>;
