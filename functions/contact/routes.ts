/** POST /api/contact: validated, rate limited per IP and per address, honeypot-protected. */
import { Hono } from 'hono';
import { z } from 'zod';
import type { RateLimitService } from '../platform/abuse/service.ts';
import type { AppEnv } from '../platform/http/context.ts';
import { clientIp, emailAddress, honeypot, multiLine, readBody, singleLine } from '../platform/http/request.ts';
import type { ContactService } from './service.ts';

const ContactSchema = z.object({
  name: singleLine('Name', 100),
  email: emailAddress,
  subject: singleLine('Subject', 150),
  message: multiLine('Message', 5000),
  website: honeypot,
});

const LIMITS = {
  perIp: { name: 'contact:ip', max: 5, windowSeconds: 600 },
  perAddress: { name: 'contact:email', max: 3, windowSeconds: 3600 },
};

export interface ContactRouteDeps {
  contact: ContactService;
  limiter: RateLimitService;
  trustProxy: number;
}

export function createContactRoutes({ contact, limiter, trustProxy }: ContactRouteDeps) {
  return new Hono<AppEnv>().post('/', async (c) => {
    const { website, ...message } = await readBody(c, ContactSchema);
    const ip = clientIp(c, trustProxy);
    await limiter.enforce([
      [LIMITS.perIp, ip],
      [LIMITS.perAddress, message.email],
    ]);
    // A filled honeypot means a bot: the same answer as a real message, and nothing stored or sent.
    if (!website) await contact.submit(message, { ip, userAgent: c.req.header('user-agent') });
    return c.json({ status: 'received' }, 201);
  });
}
