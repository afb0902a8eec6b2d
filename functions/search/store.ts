/** The search domain's one query: what people typed, parsed once into the tsquery every source searches with. */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.ts';

export function createSearchStore(db: DbOrTx) {
  return {
    /**
     * The query as Postgres's English configuration reads what people type (`websearch_to_tsquery`:
     * quotes, `or` and `-`; nothing is a syntax error), as text; empty when it has no lexemes (only
     * stop words or punctuation) or only negations.
     */
    async tsquery(q: string): Promise<string> {
      // A query of negations only (`-word`) would match nearly every row: it finds nothing here.
      const result = await db.execute(
        sql`select case when querytree(parsed) = 'T' then '' else parsed::text end as query from websearch_to_tsquery('english', ${q}) parsed`,
      );
      return (result as unknown as { rows: { query: string }[] }).rows[0]?.query ?? '';
    },
  };
}
