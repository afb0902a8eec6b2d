/**
 * Migration revenue_history starts an existing install's revenue history where its money stands
 * (issue 35, item 4): one `new` movement per subscription that pays now, dated when our copy was
 * made, at its monthly price (a year's a twelfth, rounded half up) less a running offer's discount;
 * a `trial` mark per trial; nothing for ended, cancelled-in-effect or unpaid subscriptions. Run on
 * PGlite from the migrations before it, then with it.
 */
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../functions/platform/db/client.ts';
import { revenueMovements } from '../../functions/payments/revenue/tables.ts';
import { tempDir } from '../support/temp.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const DAY = 86_400_000;

let dir = '';
afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

it('backfills one movement per paying subscription, discounts taken off, and marks trials', async () => {
  dir = await tempDir('revenue-migration-');
  const before = path.join(dir, 'migrations');
  await cp(MIGRATIONS_DIR, before, { recursive: true });
  const journalPath = path.join(before, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag.endsWith('_revenue_history'));
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  await writeFile(journalPath, JSON.stringify(journal));

  const client = new PGlite();
  const db = drizzle(client);
  try {
    await migrate(db, { migrationsFolder: before });
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const created = (n: number) => iso(now - n * DAY);
    for (let n = 1; n <= 8; n++)
      await db.execute(sql`insert into profiles (id, email, access_level) values (${id(n)}, ${`p${n}@revenue.test`}, 'subscriber')`);
    const subscription = (n: number, status: string, amount: number, interval: string, cancelAt: number | null = null) =>
      db.execute(sql`insert into subscriptions (id, user_id, customer_id, status, access_level, amount, interval, current_period_end, cancel_at, created_at)
        values (${`sub_${n}`}, ${id(n)}, ${`cus_${n}`}, ${status}, 'subscriber', ${amount}, ${interval}, ${iso(now + 20 * DAY)},
          ${cancelAt === null ? null : iso(cancelAt)}, ${created(n)})`);
    const offer = (n: number, terms: string, duration: string, months: number | null) =>
      db.execute(sql`insert into offers (id, code, kind, percent_off, amount_off, duration, duration_in_months, coupon_id, created_by)
        values (${id(100 + n)}, ${`CODE${n}`}, 'signup', ${terms.endsWith('%') ? Number(terms.slice(0, -1)) : null},
          ${terms.endsWith('%') ? null : Number(terms)}, ${duration}, ${months}, ${`coupon_${n}`}, ${id(1)})`);
    const redeemed = (n: number, offerN: number, daysAgo: number) =>
      db.execute(sql`insert into offer_redemptions (offer_id, user_id, status, subscription_id, redeemed_at)
        values (${id(100 + offerN)}, ${id(n)}, 'redeemed', ${`sub_${n}`}, ${iso(now - daysAgo * DAY)})`);

    await subscription(1, 'active', 999, 'month'); // 999
    await subscription(2, 'past_due', 9590, 'year'); // 799 (799.17)
    await subscription(3, 'active', 1999, 'month'); // 50 % forever: 1000 (999.5 up)
    await offer(1, '50%', 'forever', null);
    await redeemed(3, 1, 40);
    await subscription(4, 'active', 1999, 'month'); // 500 off for 3 months, redeemed 100 days ago: over, 1999
    await offer(2, '500', 'repeating', 3);
    await redeemed(4, 2, 100);
    await subscription(5, 'active', 19190, 'year'); // 500 off for 3 months, redeemed 10 days ago: (19190 - 500) / 12 = 1557.5 → 1558
    await redeemed(5, 2, 10);
    await subscription(6, 'trialing', 999, 'month'); // a trial: marked
    await subscription(7, 'canceled', 999, 'month'); // ended: nothing
    await subscription(8, 'active', 999, 'month', now - 1000); // its cancellation in effect: nothing

    await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
    const rows = await db.select().from(revenueMovements);
    const of = (n: number) =>
      rows
        .filter((r) => r.subscriptionId === `sub_${n}`)
        .map((r) => ({ kind: r.kind, before: r.mrrBefore, after: r.mrrAfter, user: r.userId, at: r.at.toISOString() }));
    const row = (n: number, kind: string, after: number) => [{ kind, before: 0, after, user: id(n), at: created(n) }];
    expect(of(1)).toEqual(row(1, 'new', 999));
    expect(of(2)).toEqual(row(2, 'new', 799));
    expect(of(3)).toEqual(row(3, 'new', 1000));
    expect(of(4)).toEqual(row(4, 'new', 1999));
    expect(of(5)).toEqual(row(5, 'new', 1558));
    expect(of(6)).toEqual(row(6, 'trial', 0));
    expect(of(7)).toEqual([]);
    expect(of(8)).toEqual([]);
  } finally {
    await client.close();
  }
});
