/**
 * Analytics' routes, on both databases: the role table (admins only, the report and its CSV alike:
 * 401 signed out, 403 for members and editors) and the bad-input suite: months written otherwise,
 * a 13th month, years outside 2000-2099, `from` after `to`, a range over 60 months and unknown
 * parameters are each a 400 naming the field, for both routes; the defaults answer the last 12
 * months.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/support/app.ts';
import { DATABASE_KINDS } from '../../tests/support/databases.ts';
import {
  ADMIN_ONLY,
  apiCaller,
  ROLE_ACCOUNTS,
  ROLE_CALLERS,
  roleAccounts,
  type RoleCaller,
  type RoleMember,
} from '../../tests/support/callers.ts';
import type { RevenueReport } from './service.ts';

const ROUTES = ['/api/admin/analytics/revenue', '/api/admin/analytics/revenue.csv'];

describe.each(DATABASE_KINDS)('analytics routes on %s', (kind) => {
  let t: TestApp;
  let tokens = {} as Record<RoleMember, string>;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', EMAIL_WORKER: 'false' });
    ({ tokens } = await roleAccounts(t, `analytics-${kind}`, ROLE_ACCOUNTS));
  });
  afterAll(() => t?.close());

  const call = (who: RoleCaller, path: string) => apiCaller(t)(who === 'anonymous' ? undefined : tokens[who], path);

  it.each(ROLE_CALLERS)('lets only admins read the revenue report and its CSV (%s)', async (who) => {
    for (const route of ROUTES) {
      const res = await call(who, `${route}?from=2030-01&to=2030-06`);
      expect(res.status, route).toBe(ADMIN_ONLY[who]);
      if (who !== 'admin') expect(await res.text()).not.toMatch(/mrr/);
    }
  });

  it('answers the last 12 months by default, and a single month', async () => {
    const report = (await (await call('admin', ROUTES[0]!)).json()) as RevenueReport;
    expect(report.series).toHaveLength(12);
    expect(report.to).toBe(new Date().toISOString().slice(0, 7));
    const one = (await (await call('admin', `${ROUTES[0]}?from=2030-02&to=2030-02`)).json()) as RevenueReport;
    expect(one.series.map((p) => p.month)).toEqual(['2030-02']);
    const longest = (await (await call('admin', `${ROUTES[0]}?from=2026-01&to=2030-12`)).json()) as RevenueReport;
    expect(longest.series).toHaveLength(60);
  });

  const bad: [query: string, field: string][] = [
    ['from=2030-06&to=2030-01', 'from'],
    ['from=2030-1&to=2030-06', 'from'],
    ['from=203001&to=2030-06', 'from'],
    ['from=2030/01&to=2030-06', 'from'],
    ['from=2030-01-01&to=2030-06', 'from'],
    ['from=2030-01&to=2030-13', 'to'],
    ['from=2030-00&to=2030-06', 'from'],
    ['from=1999-12&to=2000-06', 'from'],
    ['from=2099-01&to=2100-01', 'to'],
    ['from=0000-01', 'from'],
    ['to=99999-01', 'to'],
    ['from=2025-01&to=2030-01', 'from'],
    ['from=%3D1%2B1&to=2030-01', 'from'],
    ['from=2030-01&to=2030-02&limit=5', '_'],
    ['from=2099-01', 'from'],
    ['from=2000-01', 'from'],
    ['from=', 'from'],
  ];
  it.each(bad)('refuses %s with a 400 naming %s, on both routes', async (query, field) => {
    for (const route of ROUTES) {
      const res = await call('admin', `${route}?${query}`);
      expect(res.status, route).toBe(400);
      const body = (await res.json()) as { error: { code: string; fields?: Record<string, string[]> } };
      expect(body.error.code).toBe('bad_request');
      expect(Object.keys(body.error.fields ?? {})).toContain(field);
    }
  });
});
