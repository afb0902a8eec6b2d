/**
 * The payment API (spec point 7, under /api/payments): checkout sessions, confirm, the caller's
 * subscription, cancel, plan changes (an upgrade now, prorated; a downgrade at the period end), the
 * provider's portal, the caller's own plan as our copy has it (for the pricing page), purchases, the
 * provider's signed webhook, and the public payment mode (test or live). Every call but the webhook
 * and the mode needs a signed-in member and acts only on their own customer, sessions and
 * subscriptions; `userId` in a body, when sent, must be the caller's. The webhook skips tokens and verifies the provider's signature on the
 * raw body instead.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { SlugSchema } from '#shared/content/schema.ts';
import { OFFER_CODE } from '#shared/payments/offers.ts';
import { AppError, fieldErrors } from '../platform/errors.ts';
import type { AppContext, AppEnv } from '../platform/http/context.ts';
import { singleLine, WellFormed } from '../platform/http/request.ts';
import { jsonBody } from '../platform/http/validators.ts';
import { createAnswer, sendCachedJson } from '../platform/http/respond.ts';
import { signedWebhookHandler, type WebhookInbox } from '../platform/webhooks/index.ts';
import { outsideKey } from '../platform/idempotency/index.ts';
import type { Guards } from '../users/index.ts';
import { requireViewer } from '../users/index.ts';
import type { Viewer } from '../users/index.ts';
import { WebhookSignatureError, type ProviderEvent } from './provider.ts';
import type { BillingService } from './service.ts';
import { PURCHASABLE_TYPES } from './tables.ts';

const ProviderId = z.string().regex(/^[\w-]{1,255}$/, 'Not a valid id');
/** An offer's code: letters, digits, dashes and underscores (3-40). */
export const OfferCode = z.string().regex(OFFER_CODE, 'offerCode must be 3 to 40 letters, digits, dashes or underscores');
const UserId = z.uuid().optional();

const CreateSession = z
  .object({
    priceId: singleLine('priceId', 100).optional(),
    item: z
      .object({ type: z.enum(PURCHASABLE_TYPES), slug: SlugSchema })
      .strict()
      .optional(),
    successUrl: singleLine('successUrl', 2000),
    cancelUrl: singleLine('cancelUrl', 2000),
    userId: UserId,
    metadata: z
      .object({ accessLevel: singleLine('accessLevel', 50).optional(), productName: singleLine('productName', 200).optional() })
      .strict()
      .optional(),
    offerCode: OfferCode.optional(),
  })
  .strict()
  .refine((b) => Boolean(b.priceId) !== Boolean(b.item), { message: 'Send either priceId or item', path: ['priceId'] })
  .refine((b) => !(b.offerCode && b.item), { message: 'Offers are for plans', path: ['offerCode'] });
const Retention = z.object({ code: OfferCode }).strict();
const Confirm = z.object({ sessionId: ProviderId, userId: UserId }).strict();
const Portal = z.object({ customerId: ProviderId, returnUrl: singleLine('returnUrl', 2000) }).strict();
const PlanChange = z.object({ priceId: singleLine('priceId', 100) }).strict();
/** The envelope we read of a verified event: ids and type (state is re-read from the provider). */
const EventEnvelope = z.object({
  object: z.literal('event'),
  id: ProviderId,
  type: z.string().regex(/^[a-z_.]{1,100}$/, 'Not an event type'),
  created: z.number().int().nonnegative(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

/** A body's `userId`, when sent, must be the caller's own. */
function ownUserId(viewer: NonNullable<Viewer>, userId: string | undefined) {
  if (userId !== undefined && userId !== viewer.id) throw new AppError('forbidden', 'You can only pay for your own account.');
}

function param(c: AppContext, name: string): string {
  const parsed = ProviderId.safeParse(c.req.param(name));
  if (!parsed.success) throw new AppError('not_found', 'Not found');
  return parsed.data;
}

export function createPaymentRoutes(deps: { billing: BillingService; inbox: WebhookInbox; guards: Guards }) {
  const { billing, inbox, guards } = deps;
  // Money moves and billing credentials (portal links) are minted only for a session still signed in.
  const { live } = guards;
  // Public and the same for everyone: whether payments run in test mode (the account page says so).
  const mode = createAnswer({ mode: billing.mode });
  return (
    new Hono<AppEnv>()
      .get('/mode', (c) => sendCachedJson(c, mode))
      // Public: each plan's free trial days (the pricing page says so); staff change them rarely.
      .get('/trials', async (c) => c.json({ trials: await billing.offers.trials() }))
      .post(
        '/stripe/webhook',
        signedWebhookHandler<ProviderEvent>({
          source: 'payments',
          inbox,
          verify: async (raw, c) => {
            let event: unknown;
            try {
              event = await billing.provider.verifyWebhook(raw, c.req.header('stripe-signature'));
            } catch (err) {
              if (err instanceof WebhookSignatureError)
                throw new AppError('bad_request', `Webhook signature verification failed: ${err.message}`);
              throw err;
            }
            const parsed = WellFormed.pipe(EventEnvelope).safeParse(event);
            if (!parsed.success)
              throw new AppError('bad_request', 'The event is not a provider event.', { fields: fieldErrors(parsed.error) });
            return [parsed.data];
          },
          apply: (event) => billing.handleEvent(event),
        }),
      )
      .use(guards.identify)
      .post('/stripe/create-session', live, jsonBody(CreateSession), async (c) => {
        const viewer = requireViewer(c);
        const body = c.req.valid('json');
        ownUserId(viewer, body.userId);
        return c.json(await billing.createSession(viewer, { ...body, idempotencyKey: outsideKey(c, 'checkout') }));
      })
      .post('/stripe/confirm', live, jsonBody(Confirm), async (c) => {
        const viewer = requireViewer(c);
        const body = c.req.valid('json');
        ownUserId(viewer, body.userId);
        return c.json(await billing.confirm(viewer, body.sessionId));
      })
      .get('/stripe/subscriptions/:customerId', guards.member, async (c) => {
        const viewer = requireViewer(c);
        return c.json(await billing.subscriptionFor(viewer, param(c, 'customerId')));
      })
      .post('/stripe/subscriptions/:subscriptionId/cancel', live, async (c) => {
        const viewer = requireViewer(c);
        return c.json({ subscription: await billing.cancel(viewer, param(c, 'subscriptionId')) });
      })
      .post('/stripe/subscriptions/:subscriptionId/change', live, jsonBody(PlanChange), async (c) => {
        const viewer = requireViewer(c);
        const { priceId } = c.req.valid('json');
        return c.json(await billing.changePlan(viewer, param(c, 'subscriptionId'), priceId));
      })
      .get('/stripe/subscriptions/:subscriptionId/retention-offer', guards.member, async (c) =>
        c.json(await billing.retentionOffer(requireViewer(c), param(c, 'subscriptionId'))),
      )
      .post('/stripe/subscriptions/:subscriptionId/retention-offer', live, jsonBody(Retention), async (c) => {
        const viewer = requireViewer(c);
        const { code } = c.req.valid('json');
        return c.json({ subscription: await billing.acceptRetention(viewer, param(c, 'subscriptionId'), code) });
      })
      .get('/subscription', guards.member, async (c) => c.json(await billing.mine(requireViewer(c))))
      .post('/stripe/create-portal-session', live, jsonBody(Portal), async (c) => {
        const viewer = requireViewer(c);
        const body = c.req.valid('json');
        return c.json(await billing.portal(viewer, body.customerId, body.returnUrl));
      })
      .get('/purchases', live, async (c) => {
        const viewer = requireViewer(c);
        return c.json({ purchases: await billing.purchases(viewer) });
      })
  );
}

/** The payment API as the browser's typed client (hono/client) sees it. */
export type PaymentRoutes = ReturnType<typeof createPaymentRoutes>;
