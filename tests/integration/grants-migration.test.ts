/**
 * Migration 0016 turns today's levels into grants with their real source (issue 34, item 1): a
 * subscription that grants now becomes its run (a trial's as `trial`, ending at a scheduled
 * cancellation); a level no subscription explains becomes an open comp made by the admin who last
 * set it (else the system); staff, free members and ended subscriptions get nothing. Run on PGlite
 * from the migrations before it, then with it.
 */
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../functions/platform/db/client.ts';
import { deriveAccess } from '../../functions/payments/grants/ledger.ts';
import { accessGrants } from '../../functions/payments/grants/tables.ts';
import { tempDir } from '../support/temp.ts';

const SYSTEM = '00000000-0000-0000-0000-000000000000';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const DAY = 86_400_000;

let dir = '';
afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

it('migrates today’s levels into grants with their real source', async () => {
  dir = await tempDir('grants-migration-');
  const before = path.join(dir, 'migrations');
  await cp(MIGRATIONS_DIR, before, { recursive: true });
  const journalPath = path.join(before, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === '0016_access_grants');
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  await writeFile(journalPath, JSON.stringify(journal));

  const client = new PGlite();
  const db = drizzle(client);
  try {
    await migrate(db, { migrationsFolder: before });
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const profile = (n: number, level: string, role = 'member') =>
      sql`insert into profiles (id, email, access_level, role) values (${id(n)}, ${`p${n}@migration.test`}, ${level}, ${role})`;
    const subscription = (n: number, user: number, level: string, status: string, cancelAt: number | null = null) =>
      sql`insert into subscriptions (id, user_id, customer_id, status, tier_id, access_level, amount, interval, current_period_end, cancel_at, created_at)
          values (${`sub_${n}`}, ${id(user)}, ${`cus_${user}`}, ${status}, ${`price_${level}_monthly`}, ${level}, 999, 'month', ${iso(now + 20 * DAY)}, ${cancelAt === null ? null : iso(cancelAt)}, ${iso(now - 40 * DAY)})`;
    // 1 pays premium; 2 pays subscriber but an admin (9) set premium; 3 was set subscriber with no trail;
    // 4 trials premium, cancelling in 5 days; 5's subscription ended (free now); 6 is staff; 7 is free;
    // 8's subscription ended but its event had not arrived (still premium): a lapse, no comp.
    for (const [n, level, role] of [
      [1, 'premium'],
      [2, 'premium'],
      [3, 'subscriber'],
      [4, 'premium'],
      [5, 'free'],
      [6, 'premium', 'admin'],
      [7, 'free'],
      [8, 'premium'],
      [9, 'premium', 'admin'],
    ] as const)
      await db.execute(profile(n, level, role));
    await db.execute(subscription(1, 1, 'premium', 'active'));
    await db.execute(subscription(2, 2, 'subscriber', 'active'));
    await db.execute(subscription(4, 4, 'premium', 'trialing', now + 5 * DAY));
    await db.execute(subscription(5, 5, 'premium', 'canceled'));
    await db.execute(subscription(8, 8, 'premium', 'canceled'));
    await db.execute(sql`insert into audit_log (actor_id, action, target_id, detail, created_at)
      values (${id(9)}, 'access_level.set', ${id(2)}, '{"from":"subscriber","to":"premium"}', ${iso(now - 3 * DAY)})`);

    await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
    const rows = await db.select().from(accessGrants);
    const of = (n: number) =>
      rows
        .filter((g) => g.userId === id(n))
        .map((g) => ({ source: g.source, level: g.accessLevel, by: g.createdBy, sourceId: g.sourceId, ends: g.endsAt?.getTime() ?? null }));
    expect(of(1)).toEqual([{ source: 'subscription', level: 'premium', by: SYSTEM, sourceId: 'sub_1', ends: null }]);
    expect(of(2)).toEqual(
      expect.arrayContaining([
        { source: 'subscription', level: 'subscriber', by: SYSTEM, sourceId: 'sub_2', ends: null },
        { source: 'comp', level: 'premium', by: id(9), sourceId: id(9), ends: null },
      ]),
    );
    expect(of(2)).toHaveLength(2);
    expect(of(3)).toEqual([{ source: 'comp', level: 'subscriber', by: SYSTEM, sourceId: SYSTEM, ends: null }]);
    expect(of(4)).toEqual([{ source: 'trial', level: 'premium', by: SYSTEM, sourceId: 'sub_4', ends: now + 5 * DAY }]);
    for (const n of [5, 6, 7, 8, 9]) expect(of(n)).toEqual([]);
    // Every member's level is what their grants derive (the lapse falls at its first read: every profile reads again).
    const profiles = (await db.execute(sql`select id, access_level, role, access_until from profiles`)).rows as {
      id: string;
      access_level: string;
      role: 'member' | 'admin';
      access_until: unknown;
    }[];
    for (const p of profiles) expect(p.access_until, p.id).not.toBeNull();
    for (const p of profiles)
      expect(
        deriveAccess(
          rows.filter((g) => g.userId === p.id),
          p.role,
          new Date(),
        ).level,
        p.id,
      ).toBe(p.id === id(8) ? 'free' : p.access_level);
  } finally {
    await client.close();
  }
});
