/**
 * Gifts' routes: a member buys one (POST /api/payments/gifts, live session: the checkout to pay it),
 * anyone with the code reads what it is (GET /api/payments/gifts/{code}), a signed-in member redeems it
 * once (POST /api/payments/gifts/{code}/redeem, live session), and the buyer follows theirs (GET
 * /api/payments/gifts, live session: it holds their redeem links).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { addDays } from 'date-fns/addDays';
import { GIFT_DELIVERY_DAYS, GIFT_LEVELS, GIFT_MESSAGE_MAX, GIFT_MONTHS } from '#shared/payments/gifts.ts';
import { AppError } from '../../platform/errors.ts';
import type { AppEnv } from '../../platform/http/context.ts';
import { emailAddress, multiLine, singleLine, visibleText } from '../../platform/http/request.ts';
import { jsonBody } from '../../platform/http/validators.ts';
import { outsideKey } from '../../platform/idempotency/index.ts';
import type { Guards } from '../../users/index.ts';
import { requireViewer } from '../../users/index.ts';
import type { BillingService } from '../service.ts';
import { GIFT_CODE } from './service.ts';

export const GiftBody = z
  .object({
    accessLevel: z.enum(GIFT_LEVELS, { error: 'accessLevel must be subscriber or premium' }),
    months: z.union(GIFT_MONTHS.map((m) => z.literal(m)) as [z.ZodLiteral<1>, z.ZodLiteral<3>, z.ZodLiteral<6>, z.ZodLiteral<12>], {
      error: 'months must be 1, 3, 6 or 12',
    }),
    recipientEmail: emailAddress,
    recipientName: visibleText(singleLine('recipientName', 100)).optional(),
    /** How the recipient's mail and page name the giver (their display name when left out). */
    fromName: visibleText(singleLine('fromName', 100)).optional(),
    message: visibleText(multiLine('message', GIFT_MESSAGE_MAX)).optional(),
    /** The day the recipient's mail goes out (today when left out), within a year. */
    deliverAt: z.iso
      .datetime({ offset: true, error: 'deliverAt must be a date and time (ISO 8601)' })
      .transform((v) => new Date(v))
      .refine((d) => d.getTime() > Date.now() - 86_400_000, 'deliverAt must not be in the past')
      .refine((d) => d <= addDays(new Date(), GIFT_DELIVERY_DAYS), 'deliverAt must be within a year')
      .optional(),
    successUrl: singleLine('successUrl', 2000),
    cancelUrl: singleLine('cancelUrl', 2000),
  })
  .strict();

const codeOf = (raw: string) => {
  if (!GIFT_CODE.test(raw)) throw new AppError('not_found', 'No gift with this code.');
  return raw;
};

export function createGiftRoutes({ billing, guards }: { billing: BillingService; guards: Guards }) {
  return new Hono<AppEnv>()
    .post('/', guards.identify, guards.live, jsonBody(GiftBody), async (c) => {
      const { successUrl, cancelUrl, ...gift } = c.req.valid('json');
      const answer = await billing.createSession(requireViewer(c), {
        gift,
        successUrl,
        cancelUrl,
        idempotencyKey: outsideKey(c, 'checkout'),
      });
      return c.json(answer);
    })
    .get('/:code', async (c) => c.json(await billing.gifts.preview(codeOf(c.req.param('code')))))
    .post('/:code/redeem', guards.identify, guards.live, async (c) =>
      c.json(await billing.gifts.redeem(requireViewer(c).id, codeOf(c.req.param('code')))),
    );
}

export function createMyGiftRoutes({ billing, guards }: { billing: BillingService; guards: Guards }) {
  // Its answer holds the gifts' redeem links, which last: from a session still signed in, like the member's feed link.
  return new Hono<AppEnv>().get('/', guards.identify, guards.live, async (c) => c.json(await billing.gifts.mine(requireViewer(c).id)));
}

export type GiftRoutes = ReturnType<typeof createGiftRoutes>;
export type MyGiftRoutes = ReturnType<typeof createMyGiftRoutes>;
