/**
 * The only module with SQL on `event_registrations`. Registering takes a per-event advisory lock
 * for the rest of the transaction, so the seat count it reads cannot change before the insert
 * commits (no overbooking, on PGlite and Postgres alike). Each reminder and the cancellation notice
 * is claimed by a conditional update (`… is null returning`), in the transaction that queues its
 * mail: two instances or a retried tick claim it once.
 */
import { and, asc, count, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.ts';
import type { DataSubject } from '../users/personal-data.ts';
import { eventRegistrations, type RegistrationRow } from './tables.ts';

/** The mail a registration is marked for once it is queued. */
export type NoticeKind = 'day' | 'hour' | 'cancelled';

const NOTICE_COLUMN = {
  day: eventRegistrations.dayReminderAt,
  hour: eventRegistrations.hourReminderAt,
  cancelled: eventRegistrations.cancelNoticeAt,
} as const;
const NOTICE_FIELD = { day: 'dayReminderAt', hour: 'hourReminderAt', cancelled: 'cancelNoticeAt' } as const;

export function createEventStore(db: DbOrTx) {
  return {
    /** Holds the event's lock until the transaction ends: registrations of one event take turns. */
    async lockEvent(slug: string): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`event-registration:${slug}`}))`);
    },

    /** A member's registration for an event, whatever its status. */
    async find(slug: string, userId: string): Promise<RegistrationRow | undefined> {
      const [row] = await db
        .select()
        .from(eventRegistrations)
        .where(and(eq(eventRegistrations.eventSlug, slug), eq(eventRegistrations.userId, userId)));
      return row;
    },

    /** How many members hold a seat. */
    async seatsTaken(slug: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(eventRegistrations)
        .where(and(eq(eventRegistrations.eventSlug, slug), eq(eventRegistrations.status, 'registered')));
      return row?.n ?? 0;
    },

    /**
     * Registers the member: a new row, or the cancelled one again (its registration time starts over,
     * so a reminder whose moment came while it was cancelled stays skipped).
     */
    async register(slug: string, userId: string): Promise<RegistrationRow> {
      const [row] = await db
        .insert(eventRegistrations)
        .values({ eventSlug: slug, userId })
        .onConflictDoUpdate({
          target: [eventRegistrations.eventSlug, eventRegistrations.userId],
          set: { status: 'registered', createdAt: sql`now()`, updatedAt: sql`now()`, cancelledAt: null },
        })
        .returning();
      return row!;
    },

    /** Cancels the member's registration; undefined when there was none to cancel. */
    async cancel(slug: string, userId: string): Promise<RegistrationRow | undefined> {
      const [row] = await db
        .update(eventRegistrations)
        .set({ status: 'cancelled', cancelledAt: sql`now()`, updatedAt: sql`now()` })
        .where(
          and(eq(eventRegistrations.eventSlug, slug), eq(eventRegistrations.userId, userId), eq(eventRegistrations.status, 'registered')),
        )
        .returning();
      return row;
    },

    /** The member's current registrations (status registered). */
    mine(userId: string): Promise<RegistrationRow[]> {
      return db
        .select()
        .from(eventRegistrations)
        .where(and(eq(eventRegistrations.userId, userId), eq(eventRegistrations.status, 'registered')));
    },

    /** Every registration of an event, cancelled ones included, oldest first (staff's list). */
    registrants(slug: string): Promise<RegistrationRow[]> {
      return db
        .select()
        .from(eventRegistrations)
        .where(eq(eventRegistrations.eventSlug, slug))
        .orderBy(asc(eventRegistrations.createdAt), asc(eventRegistrations.id));
    },

    /**
     * Up to `limit` registrations still waiting for a notice, in id order after `after`: registered,
     * not yet marked for it, and (for a reminder) registered by `registeredBy`, the moment it was due.
     */
    awaiting(slug: string, kind: NoticeKind, options: { registeredBy?: Date; after?: string; limit: number }) {
      const { registeredBy, after, limit } = options;
      return db
        .select({ id: eventRegistrations.id, userId: eventRegistrations.userId })
        .from(eventRegistrations)
        .where(
          and(
            eq(eventRegistrations.eventSlug, slug),
            eq(eventRegistrations.status, 'registered'),
            isNull(NOTICE_COLUMN[kind]),
            registeredBy ? lte(eventRegistrations.createdAt, registeredBy) : undefined,
            after ? gt(eventRegistrations.id, after) : undefined,
          ),
        )
        .orderBy(asc(eventRegistrations.id))
        .limit(limit);
    },

    /**
     * Marks one registration's notice as queued, if it is still registered and unmarked: true for
     * the one caller that marked it (the others find it marked, or wait on the row and then do).
     */
    async claimNotice(id: string, kind: NoticeKind): Promise<boolean> {
      const claimed = await db
        .update(eventRegistrations)
        .set({ [NOTICE_FIELD[kind]]: sql`now()` })
        .where(and(eq(eventRegistrations.id, id), eq(eventRegistrations.status, 'registered'), isNull(NOTICE_COLUMN[kind])))
        .returning({ id: eventRegistrations.id });
      return claimed.length > 0;
    },

    /** The member's part of their data export: their registrations as stored. */
    async personalData({ id }: DataSubject) {
      return { eventRegistrations: await db.select().from(eventRegistrations).where(eq(eventRegistrations.userId, id)) };
    },

    /** Deletes the member's registrations (account deletion; the profile's foreign key would take them too). */
    async erase({ id }: DataSubject): Promise<void> {
      await db.delete(eventRegistrations).where(eq(eventRegistrations.userId, id));
    },
  };
}

export type EventStore = ReturnType<typeof createEventStore>;
