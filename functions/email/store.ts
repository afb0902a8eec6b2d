/** The only module that touches the emails and email_events tables. */
import { and, asc, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.ts';
import { emailEvents, emails, type EmailRow, type NewEmailRow } from './tables.ts';

/** NOTIFY channel that wakes idle workers when mail is queued. */
export const EMAIL_CHANNEL = 'email_queued';

export function createEmailStore(db: DbOrTx) {
  return {
    /** Inserts a message and wakes the workers once the transaction commits. */
    async insert(row: NewEmailRow): Promise<EmailRow> {
      const [created] = await db.insert(emails).values(row).returning();
      await db.execute(sql`select pg_notify(${EMAIL_CHANNEL}, '')`);
      return created!;
    },

    async findById(id: string): Promise<EmailRow | undefined> {
      const [row] = await db.select().from(emails).where(eq(emails.id, id)).limit(1);
      return row;
    },

    /**
     * Leases up to `limit` due messages to `owner`: queued ones whose next attempt is due and whose
     * lease is free or expired (its worker died). SKIP LOCKED lets several workers claim at once
     * without waiting on, or taking, each other's rows. Each claim counts as an attempt.
     */
    async claim(owner: string, limit: number, leaseMs: number): Promise<EmailRow[]> {
      const due = db
        .select({ id: emails.id })
        .from(emails)
        .where(
          and(
            eq(emails.status, 'queued'),
            sql`${emails.nextAttemptAt} <= now()`,
            or(isNull(emails.leaseExpiresAt), lt(emails.leaseExpiresAt, sql`now()`)),
          ),
        )
        .orderBy(asc(emails.nextAttemptAt))
        .limit(limit)
        .for('update', { skipLocked: true });
      return db
        .update(emails)
        .set({
          leaseOwner: owner,
          leaseExpiresAt: sql`now() + make_interval(secs => ${leaseMs / 1000})`,
          attempts: sql`${emails.attempts} + 1`,
          updatedAt: sql`now()`,
        })
        .where(inArray(emails.id, due))
        .returning();
    },

    /** Applies a worker's result, only while it still holds the lease (fencing). */
    async settle(id: string, owner: string, patch: Partial<NewEmailRow>): Promise<boolean> {
      const updated = await db
        .update(emails)
        .set({ ...patch, leaseOwner: null, leaseExpiresAt: null, updatedAt: sql`now()` })
        .where(and(eq(emails.id, id), eq(emails.leaseOwner, owner)))
        .returning({ id: emails.id });
      return updated.length > 0;
    },

    /** Gives leased, unsent messages back at once (graceful shutdown); the attempt is not counted. */
    async release(ids: string[], owner: string): Promise<void> {
      if (ids.length === 0) return;
      await db
        .update(emails)
        .set({ leaseOwner: null, leaseExpiresAt: null, attempts: sql`greatest(${emails.attempts} - 1, 0)`, updatedAt: sql`now()` })
        .where(and(inArray(emails.id, ids), eq(emails.leaseOwner, owner), eq(emails.status, 'queued')));
    },

    /** Messages waiting to be sent, next due first. */
    queued(limit: number): Promise<EmailRow[]> {
      return db.select().from(emails).where(eq(emails.status, 'queued')).orderBy(asc(emails.nextAttemptAt)).limit(limit);
    },

    /** Messages that left the queue (sent, delivered or failed), newest first. */
    recent(limit: number): Promise<EmailRow[]> {
      return db
        .select()
        .from(emails)
        .where(inArray(emails.status, ['sent', 'delivered', 'failed']))
        .orderBy(desc(emails.updatedAt))
        .limit(limit);
    },

    async requeue(id: string): Promise<EmailRow | undefined> {
      const [row] = await db
        .update(emails)
        .set({
          status: 'queued',
          attempts: 0,
          nextAttemptAt: sql`now()`,
          errorMessage: null,
          failedAt: null,
          leaseOwner: null,
          leaseExpiresAt: null,
          updatedAt: sql`now()`,
        })
        .where(and(eq(emails.id, id), eq(emails.status, 'failed')))
        .returning();
      if (row) await db.execute(sql`select pg_notify(${EMAIL_CHANNEL}, '')`);
      return row;
    },

    async findByProviderId(providerMessageId: string): Promise<EmailRow | undefined> {
      const [row] = await db.select().from(emails).where(eq(emails.providerMessageId, providerMessageId)).limit(1);
      return row;
    },

    /** Records a provider event once; false when this event id was seen before. */
    async recordEvent(event: { eventId: string; emailId: string | null; type: string; detail?: string; occurredAt: Date }) {
      const inserted = await db.insert(emailEvents).values(event).onConflictDoNothing().returning({ id: emailEvents.id });
      return inserted.length > 0;
    },

    async update(id: string, patch: Partial<NewEmailRow>): Promise<void> {
      await db
        .update(emails)
        .set({ ...patch, updatedAt: sql`now()` })
        .where(eq(emails.id, id));
    },
  };
}

export type EmailStore = ReturnType<typeof createEmailStore>;
