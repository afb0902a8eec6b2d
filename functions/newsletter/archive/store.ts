/** The only SQL the archive runs: issues that went out (sending or sent), read-only. */
import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { newsletterIssues, type IssueRow, type IssueStatus } from '../tables.ts';

const ARCHIVED: IssueStatus[] = ['sending', 'sent'];

export function createArchiveStore(db: DbOrTx) {
  return {
    /** Issues that went out, newest first. */
    list(limit: number): Promise<IssueRow[]> {
      return db
        .select()
        .from(newsletterIssues)
        .where(and(inArray(newsletterIssues.status, ARCHIVED), isNotNull(newsletterIssues.sentAt)))
        .orderBy(desc(newsletterIssues.sentAt), desc(newsletterIssues.id))
        .limit(limit);
    },

    /** One issue that went out, by slug. */
    async bySlug(slug: string): Promise<IssueRow | undefined> {
      const [row] = await db
        .select()
        .from(newsletterIssues)
        .where(and(eq(newsletterIssues.slug, slug), inArray(newsletterIssues.status, ARCHIVED)));
      return row;
    },
  };
}
