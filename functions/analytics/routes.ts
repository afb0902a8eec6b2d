/**
 * Analytics' routes under /api/admin/analytics, admins only from a session still signed in (the
 * figures are the business's): GET /revenue?from=YYYY-MM&to=YYYY-MM (the report as JSON) and GET
 * /revenue.csv with the same query (its monthly series as a file). `to` defaults to this month,
 * `from` to eleven months before `to`; at most 60 months, years 2000 to 2099. A bad month, `from`
 * after `to`, a longer range or any other parameter is a 400 that names the field.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../platform/http/context.ts';
import { queryOf } from '../platform/http/validators.ts';
import type { Guards } from '../users/index.ts';
import type { AnalyticsService } from './service.ts';

const Month = (name: string) =>
  z.string().regex(/^20\d{2}-(0[1-9]|1[0-2])$/, `${name} must be a month from 2000-01 to 2099-12, written YYYY-MM`);

/** The months asked for; their order and the range's length are checked once the defaults are known (service.ts). */
const RangeQuery = z.object({ from: Month('from').optional(), to: Month('to').optional() }).strict();

/** The range asked for; any problem with it is the client's, a 400 naming the field. */
const range = queryOf(RangeQuery, { code: 'bad_request', message: 'The range is not valid.' });

export function createAnalyticsRoutes({ analytics, guards }: { analytics: AnalyticsService; guards: Guards }) {
  const admin = [guards.identify, guards.admin, guards.live] as const;
  return new Hono<AppEnv>()
    .get('/revenue', ...admin, range, async (c) => c.json(await analytics.revenue(c.req.valid('query'))))
    .get('/revenue.csv', ...admin, range, async (c) => {
      const { filename, body } = await analytics.revenueCsv(c.req.valid('query'));
      return c.body(body, 200, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${filename}"` });
    });
}

/** The analytics API as the browser's typed client (hono/client) sees it. */
export type AnalyticsRoutes = ReturnType<typeof createAnalyticsRoutes>;
