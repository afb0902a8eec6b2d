/**
 * The grants ledger's routes: a member's own grants (GET /api/payments/grants), and comps for admins
 * (POST /api/admin/payments/members/{id}/comps, DELETE /api/admin/payments/members/{id}/comps/{compId},
 * GET /api/admin/payments/members/{id}/grants for the member's card). Staff routes need a session
 * still signed in.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { addYears } from 'date-fns/addYears';
import type { AppEnv } from '../../platform/http/context.ts';
import { pathId, singleLine } from '../../platform/http/request.ts';
import { jsonBody, pathIds } from '../../platform/http/validators.ts';
import type { Guards } from '../../users/index.ts';
import { requireViewer } from '../../users/index.ts';
import { MAX_COMP_YEARS } from './comps.ts';
import type { GrantService } from './service.ts';
import { GRANT_LEVELS } from './tables.ts';

/** A comp: a paid level until a future date (at most MAX_COMP_YEARS ahead) or open-ended, with a staff note. */
export const CompBody = z
  .object({
    accessLevel: z.enum(GRANT_LEVELS, { error: 'accessLevel must be subscriber or premium' }),
    until: z.iso
      .datetime({ offset: true, error: 'until must be a date and time (ISO 8601), such as 2027-03-12T00:00:00Z' })
      .transform((v) => new Date(v))
      .refine((d) => d.getTime() > Date.now(), 'until must be in the future')
      .refine((d) => d <= addYears(new Date(), MAX_COMP_YEARS), `until must be within ${MAX_COMP_YEARS} years`)
      .optional(),
    note: singleLine('note', 500).optional(),
  })
  .strict();

export function createMyGrantRoutes({ access, guards }: { access: GrantService; guards: Guards }) {
  return new Hono<AppEnv>().get('/', guards.identify, guards.member, async (c) => c.json(await access.mine(requireViewer(c).id)));
}

export function createCompRoutes({ access, guards }: { access: GrantService; guards: Guards }) {
  const admin = [guards.identify, guards.admin, guards.live] as const;
  const member = (c: Parameters<typeof pathId>[0]) => pathId(c, 'id', 'No such user.');
  return new Hono<AppEnv>()
    .get('/:id/grants', ...admin, async (c) => c.json(await access.ofMember(member(c))))
    .post('/:id/comps', ...admin, pathIds({ id: 'No such user.' }), jsonBody(CompBody), async (c) =>
      c.json(await access.comps.add(requireViewer(c).id, c.req.valid('param').id, c.req.valid('json')), 201),
    )
    .delete('/:id/comps/:compId', ...admin, async (c) => {
      const id = member(c);
      await access.comps.end(requireViewer(c).id, id, pathId(c, 'compId', 'No such comp for this member.'));
      return c.body(null, 204);
    });
}

/** A member's grants as the browser's typed client (hono/client) sees them. */
export type MyGrantRoutes = ReturnType<typeof createMyGrantRoutes>;

/** The comps API as the browser's typed client (hono/client) sees it. */
export type CompRoutes = ReturnType<typeof createCompRoutes>;
