/** POST /api/leads: the lead dialog of the tools list. */
import { Hono } from 'hono';
import { z } from 'zod';
import type { RateLimiter } from '../abuse/rate-limit.ts';
import { clientIp, emailAddress, honeypot, readBody, singleLine } from '../lib/request.ts';
import type { Leads } from './service.ts';

export const LeadSchema = z.object({
  name: singleLine('Name', 100).optional(),
  email: emailAddress,
  phone: z
    .string()
    .trim()
    .max(40, 'Phone must be at most 40 characters')
    .regex(/^[+()\d\s.-]*$/, 'Use digits, spaces and + ( ) - . only')
    .optional()
    .transform((v) => v || undefined),
  toolId: z.string().trim().min(1, 'Choose a tool').max(120),
  website: honeypot,
});

const LIMITS = {
  perIp: { name: 'leads:ip', max: 20, windowSeconds: 3600 },
  perAddress: { name: 'leads:email', max: 10, windowSeconds: 3600 },
};

export function createLeadRoutes({ leads, limiter, trustProxy }: { leads: Leads; limiter: RateLimiter; trustProxy: number }) {
  return new Hono().post('/', async (c) => {
    const { website, ...input } = await readBody(c, LeadSchema);
    const ip = clientIp(c, trustProxy);
    await limiter.enforce([
      [LIMITS.perIp, ip],
      [LIMITS.perAddress, input.email],
    ]);
    if (website) return c.json({ downloadUrl: null }, 201);
    const { downloadUrl } = await leads.request(input, { ip });
    return c.json({ downloadUrl }, 201);
  });
}
