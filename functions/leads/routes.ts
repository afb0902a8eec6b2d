/** POST /api/leads: the lead dialog of the tools list. */
import { Hono } from 'hono';
import { z } from 'zod';
import type { RateLimitService } from '../platform/abuse/service.ts';
import type { AppEnv } from '../platform/http/context.ts';
import { clientIp, emailAddress, honeypot, itemRef, readBody, singleLine } from '../platform/http/request.ts';
import type { LeadService } from './service.ts';

const LeadSchema = z.object({
  name: singleLine('Name', 100).optional(),
  email: emailAddress,
  phone: z
    .string()
    .trim()
    .max(40, 'Phone must be at most 40 characters')
    .regex(/^[+()\d .-]*$/, 'Use digits, spaces and + ( ) - . only')
    .optional()
    .transform((v) => v || undefined),
  toolId: itemRef('Tool'),
  website: honeypot,
});

const LIMITS = {
  perIp: { name: 'leads:ip', max: 20, windowSeconds: 3600 },
  perAddress: { name: 'leads:email', max: 10, windowSeconds: 3600 },
};

export interface LeadRouteDeps {
  leads: LeadService;
  limiter: RateLimitService;
  trustProxy: number;
}

export function createLeadRoutes({ leads, limiter, trustProxy }: LeadRouteDeps) {
  return new Hono<AppEnv>().post('/', async (c) => {
    const { website, ...input } = await readBody(c, LeadSchema);
    const ip = clientIp(c, trustProxy);
    await limiter.enforce([
      [LIMITS.perIp, ip],
      [LIMITS.perAddress, input.email],
    ]);
    // A filled honeypot means a bot: the same answer (a working link to the free file), but no lead
    // is stored and no email sent, so the form cannot be used to mail strangers.
    const { downloadUrl } = await leads.request(input, { ip, record: !website });
    return c.json({ downloadUrl }, 201);
  });
}
