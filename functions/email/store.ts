/** The only module that touches the emails and email_events tables. */
import { and, asc, desc, eq, inArray, isNull, lt, or, sql, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.ts';
import { emailEvents, emails, type EmailRow, type NewEmailRow } from './tables.ts';

/** Copies per statement of `insertCopies` (each a handful of short values; the message's text is sent once). */
const COPY_ROWS = 1000;

/** The message `insertCopies` copies: everything but the recipient and their link. */
export interface CopiedMessage {
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
  from: string;
  replyTo: string | null;
  template: string;
  maxAttempts: number;
  /** The host of each copy's Message-ID (`<id@host>`). */
  messageIdHost: string;
  /** Bulk mail waits behind transactional mail. */
  bulk: boolean;
  /** The set the copies belong to (see `tally`), or null. */
  batch: string | null;
}

/** One recipient's copy: its id, address, what replaces the placeholder, the member, and when it may go out. */
export interface MessageCopy {
  id: string;
  to: string;
  fill: string;
  userId: string | null;
  notBefore: Date | null;
}

/** Where a set of messages stands (see `tally`). */
export interface MailTally {
  queued: number;
  sent: number;
  failed: number;
}

export const NO_MAIL: MailTally = { queued: 0, sent: 0, failed: 0 };

/** NOTIFY channel that wakes idle workers when mail is queued. */
export const EMAIL_CHANNEL = 'email_queued';

/** What the parts of `createEmailStore` share. */
interface StoreDeps {
  db: DbOrTx;
}

/** Mail into the outbox: one, many copies, counted and withdrawn. */
function enqueueRows({ db }: StoreDeps) {
  return {
    /** Inserts a message and wakes the workers once the transaction commits. */
    async insert(row: NewEmailRow): Promise<EmailRow> {
      const [created] = await db.insert(emails).values(row).returning();
      await db.execute(sql`select pg_notify(${EMAIL_CHANNEL}, '')`);
      return created!;
    },
    /**
     * Inserts one message's copies for many recipients, each the message with `placeholder`
     * replaced by that recipient's `fill` (their own link token), made by the database in
     * multi-row statements (`insert … select … from unnest(…)`): the message's text crosses the
     * wire once per statement, not once per recipient, and this process never holds a copy. Wakes
     * the workers once, at commit.
     */
    async insertCopies(message: CopiedMessage, placeholder: string, copies: MessageCopy[]): Promise<void> {
      if (copies.length === 0) return;
      const fill = (text: SQLWrapper | string) => sql`replace(${text}, ${placeholder}, r.fill)`;
      const headers = JSON.stringify(message.headers);
      for (let i = 0; i < copies.length; i += COPY_ROWS) {
        const chunk = copies.slice(i, i + COPY_ROWS);
        const column = <T>(pick: (c: MessageCopy) => T) => sql.param(chunk.map(pick));
        await db.execute(sql`insert into ${emails} (id, to_address, user_id, next_attempt_at, subject, body_html, body_text, headers,
            from_address, reply_to, template, max_attempts, bulk, batch)
          select r.id, r.to_address, r.user_id, coalesce(r.not_before, now()), ${fill(message.subject)}, ${fill(message.html)}, ${fill(message.text)},
            ${fill(headers)}::jsonb || jsonb_build_object('Message-ID', '<' || r.id || '@' || ${message.messageIdHost} || '>'),
            ${message.from}, ${message.replyTo}, ${message.template}, ${message.maxAttempts}, ${message.bulk}, ${message.batch}
          from unnest(${column((c) => c.id)}::uuid[], ${column((c) => c.to)}::text[], ${column((c) => c.fill)}::text[],
            ${column((c) => c.userId)}::text[], ${column((c) => c.notBefore?.toISOString() ?? null)}::timestamptz[])
            as r(id, to_address, fill, user_id, not_before)`);
      }
      await db.execute(sql`select pg_notify(${EMAIL_CHANNEL}, '')`);
    },
    /**
     * Where the messages of each batch stand: waiting, sent (or delivered) and failed, counted in one
     * query (one snapshot, so they add up) over the batch index. Batches with no message are absent.
     */
    async tally(batches: string[]): Promise<Map<string, MailTally>> {
      if (batches.length === 0) return new Map();
      const rows = await db
        .select({
          batch: emails.batch,
          queued: sql<number>`count(*) filter (where ${emails.status} = 'queued')`.mapWith(Number),
          sent: sql<number>`count(*) filter (where ${emails.status} in ('sent', 'delivered'))`.mapWith(Number),
          failed: sql<number>`count(*) filter (where ${emails.status} = 'failed')`.mapWith(Number),
        })
        .from(emails)
        .where(inArray(emails.batch, batches))
        .groupBy(emails.batch);
      return new Map(rows.map(({ batch, ...tally }) => [batch!, tally]));
    },
    /**
     * Fails the still-queued bulk messages to an address, with `reason`, so none goes out after it
     * (a bounce, a complaint, an unsubscribe). A message a live worker holds is on its way and is
     * left alone; one whose lease expired is taken back (its worker's late result is fenced off).
     */
    async withdrawBulk(address: string, reason: string): Promise<{ id: string; batch: string | null }[]> {
      return db
        .update(emails)
        .set({
          status: 'failed',
          failedAt: sql`now()`,
          errorMessage: reason,
          leaseOwner: null,
          leaseExpiresAt: null,
          updatedAt: sql`now()`,
        })
        .where(
          and(
            eq(emails.status, 'queued'),
            eq(emails.bulk, true),
            sql`lower(${emails.to}) = lower(${address})`,
            or(isNull(emails.leaseExpiresAt), lt(emails.leaseExpiresAt, sql`now()`)),
          ),
        )
        .returning({ id: emails.id, batch: emails.batch });
    },
    async findById(id: string): Promise<EmailRow | undefined> {
      const [row] = await db.select().from(emails).where(eq(emails.id, id)).limit(1);
      return row;
    },
  };
}

/** The worker's side: claims under a lease, renewals, settling and releasing. */
function claimRows({ db }: StoreDeps) {
  return {
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
        // Transactional mail (a password reset) first: a big newsletter issue never keeps it waiting.
        .orderBy(asc(emails.bulk), asc(emails.nextAttemptAt))
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
    /**
     * Extends the leases `owner` still holds on these queued messages to `leaseMs` from now (the
     * worker's heartbeat); answers the ids it still holds. One taken by another worker after its
     * lease ran out, withdrawn, or already settled is not among them.
     */
    async renew(ids: string[], owner: string, leaseMs: number): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .update(emails)
        .set({ leaseExpiresAt: sql`now() + make_interval(secs => ${leaseMs / 1000})` })
        .where(and(inArray(emails.id, ids), eq(emails.leaseOwner, owner), eq(emails.status, 'queued')))
        .returning({ id: emails.id });
      return new Set(rows.map((r) => r.id));
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
  };
}

/** What staff see and do after: the queue, recent mail, a resend, the provider's delivery events. */
function historyRows({ db }: StoreDeps) {
  return {
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

export function createEmailStore(db: DbOrTx) {
  const deps: StoreDeps = { db };
  return { ...enqueueRows(deps), ...claimRows(deps), ...historyRows(deps) };
}

export type EmailStore = ReturnType<typeof createEmailStore>;
