/** POST /api/contact: validated, rate limited per IP and per address, honeypot-protected. */
import { Hono } from 'hono';
import { z } from 'zod';
import type { RateLimiter } from '../abuse/rate-limit.ts';
import { clientIp, emailAddress, honeypot, readBody, singleLine } from '../lib/request.ts';
import type { Contact } from './service.ts';

export const ContactSchema = z.object({
  name: singleLine('Name', 100),
  email: emailAddress,
  subject: singleLine('Subject', 150),
  message: z
    .string({ error: 'Message is required' })
    .trim()
    .min(1, 'Message is required')
    .max(5000, 'Message must be at most 5000 characters'),
  website: honeypot,
});

const LIMITS = {
  perIp: { name: 'contact:ip', max: 5, windowSeconds: 600 },
  perAddress: { name: 'contact:email', max: 3, windowSeconds: 3600 },
};

export function createContactRoutes({ contact, limiter, trustProxy }: { contact: Contact; limiter: RateLimiter; trustProxy: number }) {
  return new Hono().post('/', async (c) => {
    const { website, ...message } = await readBody(c, ContactSchema);
    const ip = clientIp(c, trustProxy);
    await limiter.enforce([
      [LIMITS.perIp, ip],
      [LIMITS.perAddress, message.email],
    ]);
    if (!website) await contact.submit(message, { ip, userAgent: c.req.header('user-agent') });
    return c.json({ status: 'received' }, 201);
  });
}
