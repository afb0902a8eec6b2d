/** Row counts of every table, so a test can prove a request wrote nothing (new tables included). */
import { sql } from 'drizzle-orm';
import type { Db } from '../../functions/platform/db/client.ts';

/** Each database's table names, read once (the suites' schema is fixed once migrations ran). */
const tableNames = new WeakMap<Db, Promise<string[]>>();

export async function rowCounts(db: Db): Promise<Record<string, number>> {
  const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  let names = tableNames.get(db);
  if (!names) {
    names = rows<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    ).then((tables) => tables.map((t) => t.table_name));
    tableNames.set(db, names);
  }
  // One round trip for every count (the bad-input suite reads them after each of thousands of requests).
  const counts = sql.join(
    (await names).map((name) => sql`select ${name} as name, count(*)::int as n from ${sql.identifier(name)}`),
    sql` union all `,
  );
  const result: Record<string, number> = {};
  for (const { name, n } of await rows<{ name: string; n: number }>(counts)) result[name] = Number(n);
  return result;
}
