/** POST /api/leads: the lead dialog of the tools list. */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../platform/http/context.ts';
import { formPost, type FormGuard } from '../platform/http/form-post.ts';
import { emailAddress, honeypot, itemRef, singleLine } from '../platform/http/request.ts';
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

export interface LeadRouteDeps extends FormGuard {
  leads: LeadService;
}

export function createLeadRoutes({ leads, ...guard }: LeadRouteDeps) {
  return new Hono<AppEnv>().post(
    '/',
    formPost({
      ...guard,
      schema: LeadSchema,
      limits: LIMITS,
      status: 201,
      // A bot gets the same answer (a working link to the free file), but no lead is stored and no
      // email sent, so the form cannot be used to mail strangers.
      handle: async (input, { ip, bot }) => {
        const { downloadUrl } = await leads.request(input, { ip, record: !bot });
        return { downloadUrl };
      },
    }),
  );
}

/** The lead dialog's API as the browser's typed client (hono/client) sees it. */
export type LeadRoutes = ReturnType<typeof createLeadRoutes>;
