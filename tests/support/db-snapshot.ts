/**
 * Row counts of every table, so a test can prove a request wrote nothing (new tables included).
 * Counting every table after each of thousands of requests was most of the bad-input suite's time,
 * so the counts are read again only when something may have written: every write takes a transaction
 * id, so while the database's snapshot (the oldest running id, the next unassigned one and the ids
 * still running) is the one of the last count, no transaction has ended since, and the last counts
 * stand. The whole snapshot, not only its next id: a transaction running at the count that ends later
 * may hold an older id than one already ended.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../functions/platform/db/client.ts';

/**
 * Tables an authenticated request may touch whatever it asked: when the member was last seen (marked
 * once an hour, in the background, by whoever they are), which is no write of what they sent.
 */
const NOT_WRITES = new Set(['member_seen']);

/** Each database's table names, read once (the suites' schema is fixed once migrations ran). */
const tableNames = new WeakMap<Db, Promise<string[]>>();
/** Each database's last counts, with the next transaction id as it was before they were read. */
const lastCounts = new WeakMap<Db, { snapshot: string; counts: Record<string, number> }>();

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

export async function rowCounts(db: Db): Promise<Record<string, number>> {
  const [{ snapshot }] = (await rows<{ snapshot: string }>(db, sql`select pg_current_snapshot()::text as snapshot`)) as [
    { snapshot: string },
  ];
  const last = lastCounts.get(db);
  if (last?.snapshot === snapshot) return { ...last.counts };
  let names = tableNames.get(db);
  if (!names) {
    names = rows<{ table_name: string }>(
      db,
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    ).then((tables) => tables.map((t) => t.table_name).filter((name) => !NOT_WRITES.has(name)));
    tableNames.set(db, names);
  }
  // One round trip for every count.
  const counts = sql.join(
    (await names).map((name) => sql`select ${name} as name, count(*)::int as n from ${sql.identifier(name)}`),
    sql` union all `,
  );
  const result: Record<string, number> = {};
  for (const { name, n } of await rows<{ name: string; n: number }>(db, counts)) result[name] = Number(n);
  lastCounts.set(db, { snapshot, counts: result });
  return { ...result };
}
