/**
 * The only module with SQL on newsletter issues, their copies (deliveries) and suppressed addresses.
 * Every change of an issue's status is a conditional update (`where status in …`), so two requests,
 * two ticks or two instances racing for one issue settle in the database: one wins, the others see
 * nothing to change. Copies are keyed by (issue, address): whatever runs twice writes one row.
 */
import { and, count, desc, eq, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import type { DataSubject } from '../../users/personal-data.ts';
import {
  newsletterDeliveries,
  newsletterIssues,
  newsletterSuppressions,
  type DeliveryRow,
  type IssueRow,
  type IssueStatus,
} from '../tables.ts';

export type NewIssue = Pick<IssueRow, 'slug' | 'subject' | 'previewText' | 'body' | 'accessLevel' | 'audience' | 'createdBy'>;
export type IssuePatch = Partial<
  Pick<IssueRow, 'subject' | 'previewText' | 'body' | 'accessLevel' | 'audience' | 'status' | 'sendAt' | 'timeZone'>
>;
export type NewDelivery = typeof newsletterDeliveries.$inferInsert;

/** What an issue's copies say about themselves (the outbox holds the rest of the account). */
export interface CopyCounts {
  recipients: number;
  suppressed: number;
  unsubscribed: number;
}

const ARCHIVED: IssueStatus[] = ['sending', 'sent'];
/** Rows per multi-row insert: large enough to be fast, small enough to stay far below Postgres's 65,535 parameters. */
const INSERT_CHUNK = 1000;

export function createIssueStore(db: DbOrTx) {
  return {
    /** Inserts an issue; undefined when its slug is taken (the caller picks another). */
    async insert(values: NewIssue): Promise<IssueRow | undefined> {
      const [row] = await db.insert(newsletterIssues).values(values).onConflictDoNothing({ target: newsletterIssues.slug }).returning();
      return row;
    },

    async byId(id: string): Promise<IssueRow | undefined> {
      const [row] = await db.select().from(newsletterIssues).where(eq(newsletterIssues.id, id));
      return row;
    },

    /** Newest first. */
    list(limit: number): Promise<IssueRow[]> {
      return db.select().from(newsletterIssues).orderBy(desc(newsletterIssues.createdAt), desc(newsletterIssues.id)).limit(limit);
    },

    /** Changes an issue only while its status is one of `from`; undefined when it was not (or there is no such issue). */
    async updateIn(id: string, from: IssueStatus[], patch: IssuePatch): Promise<IssueRow | undefined> {
      const [row] = await db
        .update(newsletterIssues)
        .set({ ...patch, updatedAt: sql`now()` })
        .where(and(eq(newsletterIssues.id, id), inArray(newsletterIssues.status, from)))
        .returning();
      return row;
    },

    /** Deletes a draft; false when the issue is not (or no longer) a draft. */
    async deleteDraft(id: string): Promise<boolean> {
      const gone = await db
        .delete(newsletterIssues)
        .where(and(eq(newsletterIssues.id, id), eq(newsletterIssues.status, 'draft')))
        .returning({ id: newsletterIssues.id });
      return gone.length > 0;
    },

    /**
     * Moves a draft or scheduled issue to `sending` (the row stays locked until the caller's
     * transaction ends). A second caller waits for that lock, then finds the status changed: undefined.
     */
    async claimForSending(id: string): Promise<IssueRow | undefined> {
      const [row] = await db
        .update(newsletterIssues)
        .set({ status: 'sending', sentAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(newsletterIssues.id, id), inArray(newsletterIssues.status, ['draft', 'scheduled'])))
        .returning();
      return row;
    },

    /** The scheduled issue due longest ago, moved to `sending`; SKIP LOCKED lets another instance take the next one. */
    async claimDue(): Promise<IssueRow | undefined> {
      const due = db
        .select({ id: newsletterIssues.id })
        .from(newsletterIssues)
        .where(and(eq(newsletterIssues.status, 'scheduled'), lte(newsletterIssues.sendAt, sql`now()`)))
        .orderBy(newsletterIssues.sendAt)
        .limit(1)
        .for('update', { skipLocked: true });
      const [row] = await db
        .update(newsletterIssues)
        .set({ status: 'sending', sentAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(inArray(newsletterIssues.id, due), eq(newsletterIssues.status, 'scheduled')))
        .returning();
      return row;
    },

    async setRecipients(id: string, recipients: number): Promise<void> {
      await db.update(newsletterIssues).set({ recipients }).where(eq(newsletterIssues.id, id));
    },

    /** Issues whose copies are still being delivered. */
    async sendingIds(): Promise<string[]> {
      const rows = await db.select({ id: newsletterIssues.id }).from(newsletterIssues).where(eq(newsletterIssues.status, 'sending'));
      return rows.map((r) => r.id);
    },

    /** Marks a sending issue sent (every copy settled); false when it was not sending. */
    async markSent(id: string): Promise<boolean> {
      const rows = await db
        .update(newsletterIssues)
        .set({ status: 'sent', updatedAt: sql`now()` })
        .where(and(eq(newsletterIssues.id, id), eq(newsletterIssues.status, 'sending')))
        .returning({ id: newsletterIssues.id });
      return rows.length > 0;
    },

    /** Issues that went out (sending or sent), newest first: the public archive. */
    archive(limit: number): Promise<IssueRow[]> {
      return db
        .select()
        .from(newsletterIssues)
        .where(and(inArray(newsletterIssues.status, ARCHIVED), isNotNull(newsletterIssues.sentAt)))
        .orderBy(desc(newsletterIssues.sentAt), desc(newsletterIssues.id))
        .limit(limit);
    },

    /** One issue that went out, by slug. */
    async archivedBySlug(slug: string): Promise<IssueRow | undefined> {
      const [row] = await db
        .select()
        .from(newsletterIssues)
        .where(and(eq(newsletterIssues.slug, slug), inArray(newsletterIssues.status, ARCHIVED)));
      return row;
    },

    /** Writes copies in multi-row inserts; a copy that exists already (same issue and address) is kept as it was. */
    async insertDeliveries(rows: NewDelivery[]): Promise<void> {
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        await db
          .insert(newsletterDeliveries)
          .values(rows.slice(i, i + INSERT_CHUNK))
          .onConflictDoNothing();
      }
    },

    /** Recipients, suppressed and unsubscribed copies of an issue, in one query. */
    async copyCounts(issueId: string): Promise<CopyCounts> {
      const [row] = await db
        .select({
          recipients: count(),
          suppressed: sql<number>`count(*) filter (where ${newsletterDeliveries.suppressed})`.mapWith(Number),
          unsubscribed: sql<number>`count(*) filter (where ${newsletterDeliveries.unsubscribedAt} is not null)`.mapWith(Number),
        })
        .from(newsletterDeliveries)
        .where(eq(newsletterDeliveries.issueId, issueId));
      return { recipients: row?.recipients ?? 0, suppressed: row?.suppressed ?? 0, unsubscribed: row?.unsubscribed ?? 0 };
    },

    /** The outbox ids of an issue's copies (not suppressed), as a subquery for the outbox's own tally. */
    copyEmailIds(issueId: string) {
      return db
        .select({ id: newsletterDeliveries.emailId })
        .from(newsletterDeliveries)
        .where(and(eq(newsletterDeliveries.issueId, issueId), eq(newsletterDeliveries.suppressed, false)));
    },

    /** Copies that should have an outbox row and have none (the row is gone): counted as failed. */
    async copiesWithoutMail(issueId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(newsletterDeliveries)
        .where(
          and(eq(newsletterDeliveries.issueId, issueId), eq(newsletterDeliveries.suppressed, false), isNull(newsletterDeliveries.emailId)),
        );
      return row?.n ?? 0;
    },

    async delivery(issueId: string, address: string): Promise<DeliveryRow | undefined> {
      const [row] = await db
        .select()
        .from(newsletterDeliveries)
        .where(and(eq(newsletterDeliveries.issueId, issueId), eq(newsletterDeliveries.address, address)));
      return row;
    },

    /** Records that this copy's reader unsubscribed through it (once). */
    async markUnsubscribed(issueId: string, address: string): Promise<void> {
      await db
        .update(newsletterDeliveries)
        .set({ unsubscribedAt: sql`now()` })
        .where(
          and(
            eq(newsletterDeliveries.issueId, issueId),
            eq(newsletterDeliveries.address, address),
            isNull(newsletterDeliveries.unsubscribedAt),
          ),
        );
    },

    /** Every suppressed address (lower-case). */
    async suppressedAddresses(): Promise<Set<string>> {
      const rows = await db.select({ address: newsletterSuppressions.address }).from(newsletterSuppressions);
      return new Set(rows.map((r) => r.address));
    },

    /** Suppresses an address for later issues; the first reason is kept. */
    async suppress(address: string, reason: string, detail: string | null): Promise<void> {
      await db.insert(newsletterSuppressions).values({ address, reason, detail }).onConflictDoNothing();
    },

    /** The member's part of their data export: the copies of issues sent to them. */
    async personalData({ id, email }: DataSubject) {
      const copies = await db
        .select({
          issueId: newsletterDeliveries.issueId,
          subject: newsletterIssues.subject,
          address: newsletterDeliveries.address,
          level: newsletterDeliveries.level,
          suppressed: newsletterDeliveries.suppressed,
          unsubscribedAt: newsletterDeliveries.unsubscribedAt,
          createdAt: newsletterDeliveries.createdAt,
        })
        .from(newsletterDeliveries)
        .innerJoin(newsletterIssues, eq(newsletterIssues.id, newsletterDeliveries.issueId))
        .where(or(eq(newsletterDeliveries.userId, id), eq(newsletterDeliveries.address, email)))
        .orderBy(desc(newsletterDeliveries.createdAt));
      return { newsletterCopies: copies };
    },

    /**
     * Deletes the member's copies (account deletion). Suppressions stay: they record that the
     * address bounced or complained, which protects the sender's reputation if it signs up again.
     */
    async erase({ id, email }: DataSubject): Promise<void> {
      await db.delete(newsletterDeliveries).where(or(eq(newsletterDeliveries.userId, id), eq(newsletterDeliveries.address, email)));
    },
  };
}

export type IssueStore = ReturnType<typeof createIssueStore>;
