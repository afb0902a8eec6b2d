/**
 * Outbound webhooks' routes, admins only from a live session (mounted at /api/admin/outbound):
 * register an endpoint (its secret in the answer, this once), list them with their delivery counts,
 * change or delete one, rotate its secret, read its delivery log, replay a delivery (same
 * webhook-id) and send it a test event.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { WEBHOOK_EVENTS } from '#shared/webhooks.ts';
import type { AppEnv } from '../platform/http/context.ts';
import { LimitParam, pathId } from '../platform/http/request.ts';
import { jsonBody, pathIds, queryOf } from '../platform/http/validators.ts';
import type { Guards } from '../users/index.ts';
import { requireViewer } from '../users/index.ts';
import type { OutboundService } from './service.ts';
import { MAX_URL_LENGTH } from './targets.ts';

/** A URL as typed: no spaces or control characters (the URL parser would drop some silently); the policy checks the rest. */
const Url = z
  .string({ error: 'url must be a string' })
  .min(1, 'url is required')
  .max(MAX_URL_LENGTH, `url must be at most ${MAX_URL_LENGTH} characters`)
  .regex(/^[^\s\p{Cc}\p{Cf}]+$/u, 'url must not contain spaces or control characters');

const Events = z
  .array(z.enum(WEBHOOK_EVENTS, { error: `events must be among: ${WEBHOOK_EVENTS.join(', ')}` }), { error: 'events must be a list' })
  .min(1, 'Pick at least one event')
  .max(WEBHOOK_EVENTS.length, `events lists at most ${WEBHOOK_EVENTS.length} names`);

export const EndpointBody = z.object({ url: Url, events: Events }).strict();

const PatchBody = z
  .object({ url: Url.optional(), events: Events.optional(), enabled: z.boolean({ error: 'enabled must be true or false' }).optional() })
  .strict()
  .refine((b) => b.url !== undefined || b.events !== undefined || b.enabled !== undefined, { message: 'Send url, events or enabled' });

const DeliveriesQuery = z.object({ limit: LimitParam });

const NO_ENDPOINT = 'No such webhook endpoint.';

export function createWebhookRoutes({ webhooks, guards }: { webhooks: OutboundService; guards: Guards }) {
  const admin = [guards.identify, guards.admin, guards.live] as const;
  return new Hono<AppEnv>()
    .get('/', ...admin, async (c) => c.json(await webhooks.list()))
    .post('/', ...admin, jsonBody(EndpointBody), async (c) => c.json(await webhooks.create(requireViewer(c).id, c.req.valid('json')), 201))
    .patch('/:id', ...admin, pathIds({ id: NO_ENDPOINT }), jsonBody(PatchBody), async (c) =>
      c.json(await webhooks.update(c.req.valid('param').id, c.req.valid('json'))),
    )
    .delete('/:id', ...admin, async (c) => {
      await webhooks.remove(pathId(c, 'id', NO_ENDPOINT));
      return c.body(null, 204);
    })
    .post('/:id/rotate', ...admin, async (c) => c.json(await webhooks.rotate(pathId(c, 'id', NO_ENDPOINT))))
    .post('/:id/test', ...admin, async (c) => c.json(await webhooks.test(pathId(c, 'id', NO_ENDPOINT), requireViewer(c).id), 202))
    .get('/:id/deliveries', ...admin, pathIds({ id: NO_ENDPOINT }), queryOf(DeliveriesQuery), async (c) =>
      c.json(await webhooks.deliveries(c.req.valid('param').id, c.req.valid('query').limit)),
    )
    .post('/:id/deliveries/:deliveryId/replay', ...admin, async (c) => {
      const id = pathId(c, 'id', NO_ENDPOINT);
      const deliveryId = pathId(c, 'deliveryId', 'No such delivery for this endpoint.');
      return c.json(await webhooks.replay(id, deliveryId), 202);
    });
}

export type WebhookRoutes = ReturnType<typeof createWebhookRoutes>;
