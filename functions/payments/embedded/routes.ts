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
import { jsonBody, pathParams } from '../../platform/http/validators.ts';
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

/** The path's ids, checked before a body is read. */
const ids = <N extends string>(...names: N[]) =>
  pathParams((c) => Object.fromEntries(names.map((name) => [name, id(c, name)])) as Record<N, string>);

export function createTestBillingRoutes({ testPages }: Pick<EmbeddedProvider, 'testPages'>) {
  return new Hono<AppEnv>()
    .get('/checkout/:id', async (c) => c.json(await testPages.describeCheckout(id(c, 'id'))))
    .post('/checkout/:id/pay', ids('id'), jsonBody(Card), async (c) =>
      c.json(await testPages.pay(c.req.valid('param').id, c.req.valid('json'))),
    )
    .get('/portal/:id', async (c) => c.json(await testPages.describePortal(id(c, 'id'))))
    .post('/portal/:id/subscriptions/:subscriptionId', ids('id', 'subscriptionId'), jsonBody(PortalAction), async (c) => {
      const { id: session, subscriptionId } = c.req.valid('param');
      return c.json({ subscription: await testPages.portalAction(session, subscriptionId, c.req.valid('json')) });
    });
}

/** The test provider's API as the browser's typed client (hono/client) sees it. */
export type TestBillingRoutes = ReturnType<typeof createTestBillingRoutes>;
