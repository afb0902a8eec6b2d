/**
 * The grants ledger's routes, on both databases: the role table (a member's own grants; comps for
 * admins only, from a live session) and the bad-input suite for comps (odd levels, past, far and
 * malformed dates, control characters, unknown fields, another member's or an unknown comp). Bad
 * input is a 4xx that changes nothing: no grant is written and the level stays.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/support/app.ts';
import { DATABASE_KINDS } from '../../../tests/support/databases.ts';
import {
  ADMIN_ONLY,
  apiCaller,
  memberMaker,
  ROLE_ACCOUNTS,
  ROLE_CALLERS,
  roleAccounts,
  type RoleCaller,
  type RoleMember,
} from '../../../tests/support/callers.ts';
import { profiles } from '../../users/tables.ts';
import { accessGrants } from './tables.ts';

const DAY = 86_400_000;

describe.each(DATABASE_KINDS)('grants ledger routes on %s', (kind) => {
  let t: TestApp;
  let ids = {} as Record<RoleMember, string>;
  let tokens = {} as Record<RoleMember, string>;
  let target = '';

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', EMAIL_WORKER: 'false' });
    ({ ids, tokens } = await roleAccounts(t, `grants-${kind}`, ROLE_ACCOUNTS));
    target = (await memberMaker(t, `grants-target-${kind}`)('Target')).id;
  });
  afterAll(() => t?.close());

  const call = (who: RoleCaller, method: string, path: string, body?: unknown) =>
    apiCaller(t)(who === 'anonymous' ? undefined : tokens[who], path, body, method);
  const grantsOf = (id: string) => t.database.db.select().from(accessGrants).where(eq(accessGrants.userId, id));
  const levelOf = async (id: string) => (await t.database.db.select().from(profiles).where(eq(profiles.id, id)))[0]!.accessLevel;

  it('answers a member their own grants only, and a visitor 401', async () => {
    expect((await call('anonymous', 'GET', '/api/payments/grants')).status).toBe(401);
    expect(await (await call('free', 'GET', '/api/payments/grants')).json()).toEqual([]);
    const mine = (await (await call('premium', 'GET', '/api/payments/grants')).json()) as { source: string; accessLevel: string }[];
    expect(mine).toEqual([expect.objectContaining({ source: 'comp', accessLevel: 'premium', active: true })]);
    // A member never reads the staff note.
    expect(JSON.stringify(mine)).not.toContain('Assigned by the system');
  });

  it.each(ROLE_CALLERS)('lets only admins read a member’s grants and make and end comps (%s)', async (who) => {
    const read = await call(who, 'GET', `/api/admin/payments/members/${target}/grants`);
    expect(read.status).toBe(ADMIN_ONLY[who]);
    const made = await call(who, 'POST', `/api/admin/payments/members/${target}/comps`, { accessLevel: 'subscriber', note: `by ${who}` });
    expect(made.status).toBe(who === 'admin' ? 201 : ADMIN_ONLY[who]);
    const { id } =
      who === 'admin'
        ? ((await made.json()) as { id: string })
        : { id: (await t.services.billing.access.comps.add(ids.admin, target, { accessLevel: 'subscriber' })).id };
    const ended = await call(who, 'DELETE', `/api/admin/payments/members/${target}/comps/${id}`);
    expect(ended.status).toBe(who === 'admin' ? 204 : ADMIN_ONLY[who]);
    if (who !== 'admin') await t.services.billing.access.comps.end(ids.admin, target, id);
    expect(await levelOf(target)).toBe('free');
  });

  it('refuses bad comps with a 4xx that writes nothing', async () => {
    const before = (await grantsOf(target)).length;
    const soon = new Date(Date.now() + 30 * DAY).toISOString();
    const bad: unknown[] = [
      {},
      { accessLevel: 'free' },
      { accessLevel: 'gold' },
      { accessLevel: 'PREMIUM' },
      { accessLevel: ['premium'] },
      { accessLevel: 'premium', until: new Date(Date.now() - DAY).toISOString() },
      { accessLevel: 'premium', until: new Date(Date.now() + 11 * 365 * DAY).toISOString() },
      { accessLevel: 'premium', until: '+275760-09-13T00:00:00.000Z' },
      { accessLevel: 'premium', until: '2027-02-30' },
      { accessLevel: 'premium', until: 'tomorrow' },
      { accessLevel: 'premium', until: 1_900_000_000_000 },
      { accessLevel: 'premium', until: soon, note: 'a\u0000b' },
      { accessLevel: 'premium', until: soon, note: 'x'.repeat(501) },
      { accessLevel: 'premium', until: soon, note: 'line\nbreak' },
      { accessLevel: 'premium', endsAt: soon },
      { accessLevel: 'premium', source: 'gift' },
    ];
    for (const body of bad) {
      const res = await call('admin', 'POST', `/api/admin/payments/members/${target}/comps`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    const raw = await t.app.request(`/api/admin/payments/members/${target}/comps`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.admin}`, 'content-type': 'application/json' },
      body: '{"accessLevel":',
    });
    expect(raw.status).toBe(400);
    // Unknown or malformed members and comps are 404s.
    expect((await call('admin', 'POST', '/api/admin/payments/members/not-a-uuid/comps', { accessLevel: 'premium' })).status).toBe(404);
    expect(
      (await call('admin', 'POST', `/api/admin/payments/members/00000000-0000-4000-8000-000000000001/comps`, { accessLevel: 'premium' }))
        .status,
    ).toBe(404);
    expect((await call('admin', 'DELETE', `/api/admin/payments/members/${target}/comps/not-a-uuid`)).status).toBe(404);
    expect((await call('admin', 'DELETE', `/api/admin/payments/members/${target}/comps/00000000-0000-4000-8000-000000000001`)).status).toBe(
      404,
    );
    expect((await grantsOf(target)).length).toBe(before);
    expect(await levelOf(target)).toBe('free');
  });

  it('ends only this member’s comps, once', async () => {
    const theirs = await t.services.billing.access.comps.add(ids.admin, ids.free, { accessLevel: 'premium' });
    // Another member's comp through this member's path: 404, and it stays.
    expect((await call('admin', 'DELETE', `/api/admin/payments/members/${target}/comps/${theirs.id}`)).status).toBe(404);
    expect(await levelOf(ids.free)).toBe('premium');
    // A member's subscription row is not a comp.
    const [granted] = await grantsOf(ids.premium);
    expect((await call('admin', 'DELETE', `/api/admin/payments/members/${ids.free}/comps/${granted!.id}`)).status).toBe(404);
    expect((await call('admin', 'DELETE', `/api/admin/payments/members/${ids.free}/comps/${theirs.id}`)).status).toBe(204);
    expect((await call('admin', 'DELETE', `/api/admin/payments/members/${ids.free}/comps/${theirs.id}`)).status).toBe(409);
    expect(await levelOf(ids.free)).toBe('free');
  });
});
