/**
 * The only module with SQL on newsletter issues, their copies (deliveries) and suppressed addresses.
 * Every change of an issue's status is a conditional update (`where status in …`), so two requests,
 * two ticks or two instances racing for one issue settle in the database: one wins, the others see
 * nothing to change. Copies are keyed by (issue, address): whatever runs twice writes one row, and
 * mail is queued only for the rows an insert reports new. The counters on an issue move in the same
 * statement's transaction as the copy they count, once per copy.
 */
import { and, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import type { DataSubject } from '../../users/index.ts';
import {
  ISSUE_COLUMNS,
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
export type NewDelivery = Omit<typeof newsletterDeliveries.$inferInsert, 'emailId' | 'bouncedAt' | 'unsubscribedAt' | 'createdAt'>;

/** Statuses an issue can still be changed, sent or scheduled from (nothing of it went out). */
export const WAITING: IssueStatus[] = ['draft', 'scheduled', 'failed'];
/** Rows per multi-row insert: large enough to be fast, small enough to stay far below Postgres's 65,535 parameters. */
const INSERT_CHUNK = 1000;

/** What the parts of `createIssueStore` share. */
interface StoreDeps {
  db: DbOrTx;
}

/** Issues as staff write them: drafts, the seed, reads and deletion. */
function issueRows({ db }: StoreDeps) {
  return {
    /** Inserts an issue; undefined when its slug is taken (the caller picks another). */
    async insert(values: NewIssue): Promise<IssueRow | undefined> {
      const [row] = await db
        .insert(newsletterIssues)
        .values(values)
        .onConflictDoNothing({ target: newsletterIssues.slug })
        .returning(ISSUE_COLUMNS);
      return row;
    },
    /**
     * Writes a demo issue as already sent, with no copies (the embedded defaults' demo: it fills the
     * archive and mailed nobody); false when its slug is taken, so instances starting together write it once.
     */
    async seedSent(values: NewIssue & { sentAt: Date }): Promise<boolean> {
      const rows = await db
        .insert(newsletterIssues)
        .values({ ...values, status: 'sent', createdAt: values.sentAt, updatedAt: values.sentAt })
        .onConflictDoNothing({ target: newsletterIssues.slug })
        .returning({ id: newsletterIssues.id });
      return rows.length > 0;
    },
    async byId(id: string): Promise<IssueRow | undefined> {
      const [row] = await db.select(ISSUE_COLUMNS).from(newsletterIssues).where(eq(newsletterIssues.id, id));
      return row;
    },
    /** Newest first. */
    list(limit: number): Promise<IssueRow[]> {
      return db
        .select(ISSUE_COLUMNS)
        .from(newsletterIssues)
        .orderBy(desc(newsletterIssues.createdAt), desc(newsletterIssues.id))
        .limit(limit);
    },
    /** Changes an issue only while its status is one of `from`; undefined when it was not (or there is no such issue). */
    async updateIn(id: string, from: IssueStatus[], patch: IssuePatch): Promise<IssueRow | undefined> {
      const [row] = await db
        .update(newsletterIssues)
        .set({ ...patch, updatedAt: sql`now()` })
        .where(and(eq(newsletterIssues.id, id), inArray(newsletterIssues.status, from)))
        .returning(ISSUE_COLUMNS);
      return row;
    },
    /** Deletes a draft (or an issue that failed to go out); false when the issue is neither. */
    async deleteDraft(id: string): Promise<boolean> {
      const gone = await db
        .delete(newsletterIssues)
        .where(and(eq(newsletterIssues.id, id), inArray(newsletterIssues.status, ['draft', 'failed'])))
        .returning({ id: newsletterIssues.id });
      return gone.length > 0;
    },
  };
}

/** An issue's sending: claimed (now or when due), counted, marked sent or failed. */
function sendingRows({ db }: StoreDeps) {
  return {
    /**
     * Moves a draft, scheduled or failed issue to `sending` (the row stays locked until the caller's
     * transaction ends). A second caller waits for that lock, then finds the status changed: undefined.
     */
    async claimForSending(id: string): Promise<IssueRow | undefined> {
      const [row] = await db
        .update(newsletterIssues)
        .set({ status: 'sending', sentAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(newsletterIssues.id, id), inArray(newsletterIssues.status, WAITING)))
        .returning(ISSUE_COLUMNS);
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
        .returning(ISSUE_COLUMNS);
      return row;
    },
    /** Records how many copies the issue has and how many of them were written without mail (in the transaction that wrote them). */
    async recordCopies(id: string): Promise<void> {
      const copies = sql`from ${newsletterDeliveries} where ${newsletterDeliveries.issueId} = ${id}`;
      await db
        .update(newsletterIssues)
        .set({
          recipients: sql`(select count(*) ${copies})`,
          suppressed: sql`(select count(*) ${copies} and ${newsletterDeliveries.suppressed})`,
        })
        .where(eq(newsletterIssues.id, id));
    },
    /** Issues whose copies are still being delivered. */
    sending(): Promise<Pick<IssueRow, 'id'>[]> {
      return db.select({ id: newsletterIssues.id }).from(newsletterIssues).where(eq(newsletterIssues.status, 'sending'));
    },
    /** Marks a sending issue sent with its final delivery counts; false when it was not sending. */
    async markSent(id: string, counts: Pick<IssueRow, 'sent' | 'failed'>): Promise<boolean> {
      const rows = await db
        .update(newsletterIssues)
        .set({ status: 'sent', sent: counts.sent, failed: counts.failed, updatedAt: sql`now()` })
        .where(and(eq(newsletterIssues.id, id), eq(newsletterIssues.status, 'sending')))
        .returning({ id: newsletterIssues.id });
      return rows.length > 0;
    },
    /** Marks a scheduled issue `failed` (the scheduler could not send it); false when it was no longer scheduled. */
    async markFailed(id: string): Promise<boolean> {
      const rows = await db
        .update(newsletterIssues)
        .set({ status: 'failed', updatedAt: sql`now()` })
        .where(and(eq(newsletterIssues.id, id), eq(newsletterIssues.status, 'scheduled')))
        .returning({ id: newsletterIssues.id });
      return rows.length > 0;
    },
  };
}

/** Each reader's copy: written, linked to its mail, delivered, unsubscribed or bounced. */
function copyRows({ db }: StoreDeps) {
  return {
    /**
     * Writes copies in multi-row inserts and answers the addresses whose row is new: a copy that
     * exists already (same issue and address) is kept as it was and gets no second mail.
     */
    async insertCopies(rows: NewDelivery[]): Promise<Set<string>> {
      const fresh = new Set<string>();
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        const inserted = await db
          .insert(newsletterDeliveries)
          .values(rows.slice(i, i + INSERT_CHUNK))
          .onConflictDoNothing()
          .returning({ address: newsletterDeliveries.address });
        for (const { address } of inserted) fresh.add(address);
      }
      return fresh;
    },
    /** Links copies to their outbox messages (addresses and ids in the same order). */
    async linkMail(issueId: string, addresses: string[], emailIds: string[]): Promise<void> {
      for (let i = 0; i < addresses.length; i += INSERT_CHUNK) {
        await db.execute(sql`update ${newsletterDeliveries} set email_id = r.email_id
          from unnest(${sql.param(addresses.slice(i, i + INSERT_CHUNK))}::text[], ${sql.param(emailIds.slice(i, i + INSERT_CHUNK))}::uuid[])
            as r(address, email_id)
          where ${newsletterDeliveries.issueId} = ${issueId} and ${newsletterDeliveries.address} = r.address`);
      }
    },
    async delivery(issueId: string, address: string): Promise<DeliveryRow | undefined> {
      const [row] = await db
        .select()
        .from(newsletterDeliveries)
        .where(and(eq(newsletterDeliveries.issueId, issueId), eq(newsletterDeliveries.address, address)));
      return row;
    },
    /** Records that this copy's reader unsubscribed through it, and counts it on the issue (once per copy). */
    async markUnsubscribed(issueId: string, address: string): Promise<void> {
      const marked = await db
        .update(newsletterDeliveries)
        .set({ unsubscribedAt: sql`now()` })
        .where(
          and(
            eq(newsletterDeliveries.issueId, issueId),
            eq(newsletterDeliveries.address, address),
            isNull(newsletterDeliveries.unsubscribedAt),
          ),
        )
        .returning({ issueId: newsletterDeliveries.issueId });
      if (marked.length)
        await db
          .update(newsletterIssues)
          .set({ unsubscribed: sql`${newsletterIssues.unsubscribed} + 1` })
          .where(eq(newsletterIssues.id, issueId));
    },
    /** Records that the provider reported this copy bounced or complained about, and counts it on the issue (once per copy). */
    async markBounced(issueId: string, emailId: string): Promise<void> {
      const marked = await db
        .update(newsletterDeliveries)
        .set({ bouncedAt: sql`now()` })
        .where(
          and(eq(newsletterDeliveries.issueId, issueId), eq(newsletterDeliveries.emailId, emailId), isNull(newsletterDeliveries.bouncedAt)),
        )
        .returning({ issueId: newsletterDeliveries.issueId });
      if (marked.length)
        await db
          .update(newsletterIssues)
          .set({ bounced: sql`${newsletterIssues.bounced} + 1` })
          .where(eq(newsletterIssues.id, issueId));
    },
  };
}

/** Addresses no issue goes to, and a reader's part of the export and erasure. */
function suppressionRows({ db }: StoreDeps) {
  return {
    /** Every suppressed address (lower-case). */
    async suppressedAddresses(): Promise<Set<string>> {
      const rows = await db.select({ address: newsletterSuppressions.address }).from(newsletterSuppressions);
      return new Set(rows.map((r) => r.address));
    },
    /** Suppresses an address for later issues; the first reason is kept. */
    async suppress(address: string, reason: string, detail: string | null): Promise<void> {
      await db.insert(newsletterSuppressions).values({ address, reason, detail }).onConflictDoNothing();
    },
    /** Suppressions a members import brings (the first reason of an address is kept). */
    async suppressMany(rows: { address: string; reason: string }[]): Promise<void> {
      if (rows.length)
        await db
          .insert(newsletterSuppressions)
          .values(rows.map((r) => ({ ...r, detail: 'imported' })))
          .onConflictDoNothing();
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
     * Anonymises the member's copies (account deletion): the address becomes a random placeholder
     * nobody can trace back and the member's id goes, while the rows (status, level, counts) stay, so
     * a sent issue's account never changes. Suppressions stay too: they record that the address
     * bounced or complained, which protects the sender's reputation if it signs up again.
     */
    async erase({ id, email }: DataSubject): Promise<void> {
      await db
        .update(newsletterDeliveries)
        .set({ address: sql`'deleted:' || gen_random_uuid()`, userId: null })
        .where(or(eq(newsletterDeliveries.userId, id), eq(newsletterDeliveries.address, email.toLowerCase())));
    },
  };
}

export function createIssueStore(db: DbOrTx) {
  const deps: StoreDeps = { db };
  return { ...issueRows(deps), ...sendingRows(deps), ...copyRows(deps), ...suppressionRows(deps) };
}

export type IssueStore = ReturnType<typeof createIssueStore>;
