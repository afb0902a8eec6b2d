/**
 * Offers' routes: admins create, list and archive offers (POST/GET /api/admin/payments/offers, DELETE
 * /api/admin/payments/offers/{id}) and set each plan's free trial (PUT
 * /api/admin/payments/offers/trials/{priceId}), from a live session; anyone reads a sign-up offer's
 * terms and prices (GET /api/payments/offers/{code}: 404 for an unknown, expired, used-up or
 * retention code alike).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { addYears } from 'date-fns/addYears';
import { OFFER_CODE, OFFER_DURATIONS, OFFER_KINDS } from '#shared/payments/offers.ts';
import { AppError } from '../../platform/errors.ts';
import type { AppEnv } from '../../platform/http/context.ts';
import { pathId } from '../../platform/http/request.ts';
import { jsonBody } from '../../platform/http/validators.ts';
import type { Guards } from '../../users/index.ts';
import { requireViewer } from '../../users/index.ts';
import type { OfferService } from './service.ts';

const whole = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);

/** A new offer: exactly one of percentOff (1-99) and amountOff (cents); months only with a repeating duration. */
export const OfferBody = z
  .object({
    code: z.string().regex(OFFER_CODE, 'code must be 3 to 40 letters, digits, dashes or underscores'),
    kind: z.enum(OFFER_KINDS, { error: 'kind must be signup or retention' }),
    percentOff: whole('percentOff', 1, 99).optional(),
    amountOff: whole('amountOff', 1, 1_000_000).optional(),
    duration: z.enum(OFFER_DURATIONS, { error: 'duration must be once, repeating or forever' }),
    durationInMonths: whole('durationInMonths', 1, 36).optional(),
    priceIds: z
      .array(z.string().regex(/^price_[a-z]+_(monthly|yearly)$/, 'Not a plan id'))
      .min(1)
      .max(8)
      .optional(),
    maxRedemptions: whole('maxRedemptions', 1, 1_000_000).optional(),
    expiresAt: z.iso
      .datetime({ offset: true, error: 'expiresAt must be a date and time (ISO 8601)' })
      .transform((v) => new Date(v))
      .refine((d) => d.getTime() > Date.now(), 'expiresAt must be in the future')
      .refine((d) => d <= addYears(new Date(), 5), 'expiresAt must be within 5 years')
      .optional(),
  })
  .strict()
  .refine((b) => (b.percentOff === undefined) !== (b.amountOff === undefined), {
    message: 'Send percentOff or amountOff',
    path: ['percentOff'],
  })
  .refine((b) => (b.duration === 'repeating') === (b.durationInMonths !== undefined), {
    message: 'durationInMonths goes with a repeating duration, and only with it',
    path: ['durationInMonths'],
  });

/** A plan's free trial: 0 (none) to 90 days. */
const TrialBody = z.object({ days: whole('days', 0, 90) }).strict();

export function createOfferAdminRoutes({ offers, guards }: { offers: OfferService; guards: Guards }) {
  const admin = [guards.identify, guards.admin, guards.live] as const;
  return new Hono<AppEnv>()
    .get('/', ...admin, async (c) => c.json(await offers.list()))
    .post('/', ...admin, jsonBody(OfferBody), async (c) => c.json(await offers.create(requireViewer(c).id, c.req.valid('json')), 201))
    .put('/trials/:priceId', ...admin, jsonBody(TrialBody), async (c) => {
      const { days } = c.req.valid('json');
      await offers.setTrial(requireViewer(c).id, c.req.param('priceId'), days);
      return c.json(await offers.trials());
    })
    .delete('/:id', ...admin, async (c) => {
      await offers.archive(pathId(c, 'id', 'No such offer.'));
      return c.body(null, 204);
    });
}

/** GET /api/payments/offers/{code}: a sign-up offer's terms, for anyone. */
export function createPublicOfferRoutes({ offers }: { offers: OfferService }) {
  return new Hono<AppEnv>().get('/:code', async (c) => {
    const code = c.req.param('code');
    if (!OFFER_CODE.test(code)) throw new AppError('not_found', 'This offer code is not valid or has ended.');
    return c.json(await offers.terms(code));
  });
}

export type OfferAdminRoutes = ReturnType<typeof createOfferAdminRoutes>;
export type PublicOfferRoutes = ReturnType<typeof createPublicOfferRoutes>;
