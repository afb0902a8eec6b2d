/** POST /api/contact: validated, rate limited per IP and per address, honeypot-protected. */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../platform/http/context.ts';
import { formPost, type FormGuard } from '../platform/http/form-post.ts';
import { emailAddress, honeypot, multiLine, singleLine } from '../platform/http/request.ts';
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

export interface ContactRouteDeps extends FormGuard {
  contact: ContactService;
}

export function createContactRoutes({ contact, ...guard }: ContactRouteDeps) {
  return new Hono<AppEnv>().post(
    '/',
    formPost({
      ...guard,
      schema: ContactSchema,
      limits: LIMITS,
      status: 201,
      handle: async (message, { ip, userAgent, bot }) => {
        // A bot gets the same answer as a real message, and nothing is stored or sent.
        if (!bot) await contact.submit(message, { ip, userAgent });
        return { status: 'received' };
      },
    }),
  );
}

/** The contact form's API as the browser's typed client (hono/client) sees it. */
export type ContactRoutes = ReturnType<typeof createContactRoutes>;
