/** The only SQL the archive runs: issues that went out (sending or sent), read-only; and site search over them (`query`: a tsquery's text). */
import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { AccessLevel } from '#shared/access.ts';
import { HEADLINE_OPTIONS, SNIPPET_MARK_END, SNIPPET_MARK_START, SNIPPET_SOURCE_CHARS } from '#shared/search.ts';
import { MARKDOWN_PREVIEW_LINE } from '#shared/content/markdown.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { ISSUE_COLUMNS, newsletterIssues, type IssueRow, type IssueStatus } from '../tables.ts';

const ARCHIVED: IssueStatus[] = ['sending', 'sent'];

const i = newsletterIssues;
const matching = (query: string) => and(sql`${i.search} @@ ${query}::tsquery`, inArray(i.status, ARCHIVED), isNotNull(i.sentAt));

export function createArchiveStore(db: DbOrTx) {
  return {
    /** Issues that went out, newest first. */
    list(limit: number): Promise<IssueRow[]> {
      return db
        .select(ISSUE_COLUMNS)
        .from(newsletterIssues)
        .where(and(inArray(newsletterIssues.status, ARCHIVED), isNotNull(newsletterIssues.sentAt)))
        .orderBy(desc(newsletterIssues.sentAt), desc(newsletterIssues.id))
        .limit(limit);
    },

    /** One issue that went out, by slug. */
    async bySlug(slug: string): Promise<IssueRow | undefined> {
      const [row] = await db
        .select(ISSUE_COLUMNS)
        .from(newsletterIssues)
        .where(and(eq(newsletterIssues.slug, slug), inArray(newsletterIssues.status, ARCHIVED)));
      return row;
    },

    /** The best `limit` issues that went out at `levels`, best first. */
    ranked(query: string, levels: readonly AccessLevel[], limit: number) {
      if (levels.length === 0) return Promise.resolve([]);
      const rank = sql<number>`ts_rank_cd(${i.search}, ${query}::tsquery)`;
      return db
        .select({ id: i.id, slug: i.slug, subject: i.subject, rank })
        .from(i)
        .where(and(matching(query), inArray(i.accessLevel, [...levels])))
        .orderBy(desc(rank), i.id)
        .limit(limit);
    },

    /** Issues that went out at `levels` matching, counted per level. */
    counted(query: string, levels: readonly AccessLevel[]): Promise<{ level: AccessLevel; count: number }[]> {
      if (levels.length === 0) return Promise.resolve([]);
      return db
        .select({ level: i.accessLevel, count: sql<number>`count(*)::int` })
        .from(i)
        .where(and(matching(query), inArray(i.accessLevel, [...levels])))
        .groupBy(i.accessLevel);
    },

    /** The highlighted fragment of each issue's body (the preview line and the snippet markers removed first). */
    headlines(ids: readonly string[], query: string): Promise<{ id: string; headline: string }[]> {
      if (ids.length === 0) return Promise.resolve([]);
      const text = sql`translate(replace(left(${i.body}, ${SNIPPET_SOURCE_CHARS}), ${MARKDOWN_PREVIEW_LINE}, ' '), ${SNIPPET_MARK_START + SNIPPET_MARK_END}, '')`;
      return db
        .select({ id: i.id, headline: sql<string>`ts_headline('english', ${text}, ${query}::tsquery, ${HEADLINE_OPTIONS})` })
        .from(i)
        .where(inArray(i.id, [...ids]));
    },
  };
}
