/**
 * The suites' proof that a request wrote nothing (tests/support/db-snapshot.ts): counts read again
 * after a write, and kept (without counting) across reads, on both databases.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../functions/platform/db/client.ts';
import { DATABASE_KINDS, openTestDatabase } from '../support/databases.ts';
import { rowCounts } from '../support/db-snapshot.ts';

describe.each(DATABASE_KINDS)('row counts on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('see an insert and a delete, and no change from reads', async () => {
    const db = database.db;
    const before = await rowCounts(db);
    await db.execute(sql`select count(*) from rate_limits`);
    expect(await rowCounts(db)).toEqual(before);
    await db.execute(sql`insert into rate_limits (key, window_start, count) values ('db-snapshot', now(), 1)`);
    const after = await rowCounts(db);
    expect(after.rate_limits).toBe(before.rate_limits! + 1);
    await db.execute(sql`delete from rate_limits where key = 'db-snapshot'`);
    expect(await rowCounts(db)).toEqual(before);
    // A write rolled back changes no count, and the counts read again say so.
    await db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into rate_limits (key, window_start, count) values ('db-snapshot', now(), 1)`);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await rowCounts(db)).toEqual(before);
  });

  it.runIf(kind === 'postgres')('see a write that was running at the last count and ended after a newer one', async () => {
    const db = database.db;
    const before = await rowCounts(db);
    let finish!: () => void;
    let inserted!: () => void;
    const written = new Promise<void>((resolve) => (inserted = resolve));
    const running = db.transaction(async (tx) => {
      await tx.execute(sql`insert into rate_limits (key, window_start, count) values ('db-snapshot-old', now(), 1)`);
      inserted();
      await new Promise<void>((resolve) => (finish = resolve));
    });
    await written;
    // A newer transaction id ends first, then the counts are read while the older one still runs.
    await db.execute(sql`insert into rate_limits (key, window_start, count) values ('db-snapshot-new', now(), 1)`);
    await db.execute(sql`delete from rate_limits where key = 'db-snapshot-new'`);
    expect(await rowCounts(db)).toEqual(before);
    finish();
    await running;
    expect((await rowCounts(db)).rate_limits).toBe(before.rate_limits! + 1);
    await db.execute(sql`delete from rate_limits where key = 'db-snapshot-old'`);
  });
});
