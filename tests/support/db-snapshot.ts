/** Row counts of every table, so a test can prove a request wrote nothing (new tables included). */
import { sql } from 'drizzle-orm';
import type { Db } from '../../functions/platform/db/client.ts';

export async function rowCounts(db: Db): Promise<Record<string, number>> {
  const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const tables = await rows<{ table_name: string }>(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name: name } of tables) {
    const [count] = await rows<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(name)}`);
    counts[name] = Number(count!.n);
  }
  return counts;
}
