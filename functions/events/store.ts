/**
 * The only module with SQL on `event_registrations`, whose rows name an event by its stable id
 * (`item.id`). Registering takes a per-event advisory lock for the rest of the transaction, so the
 * seat count it reads cannot change before the insert commits (no overbooking, on PGlite and Postgres
 * alike); staff's writes to the event take the same lock (changes.ts). Each reminder and the
 * cancellation notice is claimed by a conditional update (`… is null returning`), in the transaction
 * that queues its mail: two instances or a retried tick claim it once.
 */
import { and, asc, count, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { ReminderKind } from '#shared/events/schedule.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import type { DataSubject } from '../users/index.ts';
import { eventRegistrations, type RegistrationRow } from './tables.ts';

/** The mail a registration is marked for once it is queued. */
export type NoticeKind = ReminderKind | 'cancelled';

const NOTICE_COLUMN = {
  day: eventRegistrations.dayReminderAt,
  hour: eventRegistrations.hourReminderAt,
  cancelled: eventRegistrations.cancelNoticeAt,
} as const;
const NOTICE_FIELD = { day: 'dayReminderAt', hour: 'hourReminderAt', cancelled: 'cancelNoticeAt' } as const;

/** A registration as the mails need it. */
export interface Registrant {
  id: string;
  userId: string;
}

/** The event's registrations still standing (not cancelled). */
const registered = (eventId: string) => and(eq(eventRegistrations.eventId, eventId), eq(eventRegistrations.status, 'registered'));

/** What the parts of `createEventStore` share. */
interface StoreDeps {
  db: DbOrTx;
}

/** Events' registrations: seats, registering, cancelling, lists. */
function registrationRows({ db }: StoreDeps) {
  return {
    /** Holds the event's lock until the transaction ends: registrations and staff's writes to one event take turns. */
    async lockEvent(eventId: string): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`event-registration:${eventId}`}))`);
    },
    /** A member's registration for an event, whatever its status. */
    async find(eventId: string, userId: string): Promise<RegistrationRow | undefined> {
      const [row] = await db
        .select()
        .from(eventRegistrations)
        .where(and(eq(eventRegistrations.eventId, eventId), eq(eventRegistrations.userId, userId)));
      return row;
    },
    /** How many members hold a seat. */
    async seatsTaken(eventId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(eventRegistrations).where(registered(eventId));
      return row?.n ?? 0;
    },
    /**
     * Registers the member: a new row, or the cancelled one again (its registration time starts over,
     * so a reminder whose moment came while it was cancelled stays skipped).
     */
    async register(eventId: string, userId: string): Promise<RegistrationRow> {
      const [row] = await db
        .insert(eventRegistrations)
        .values({ eventId, userId })
        .onConflictDoUpdate({
          target: [eventRegistrations.eventId, eventRegistrations.userId],
          set: { status: 'registered', createdAt: sql`now()`, updatedAt: sql`now()`, cancelledAt: null },
        })
        .returning();
      return row!;
    },
    /** Cancels the member's registration; undefined when there was none to cancel. */
    async cancel(eventId: string, userId: string): Promise<RegistrationRow | undefined> {
      const [row] = await db
        .update(eventRegistrations)
        .set({ status: 'cancelled', cancelledAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(registered(eventId), eq(eventRegistrations.userId, userId)))
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
    registrants(eventId: string): Promise<RegistrationRow[]> {
      return db
        .select()
        .from(eventRegistrations)
        .where(eq(eventRegistrations.eventId, eventId))
        .orderBy(asc(eventRegistrations.createdAt), asc(eventRegistrations.id));
    },
  };
}

/** Reminder and notice rounds, and a member's part of the export and erasure. */
function reminderRows({ db }: StoreDeps) {
  return {
    /** The registrations holding a seat now, in id order (a moved event's notice goes to each). */
    current(eventId: string): Promise<Registrant[]> {
      return db
        .select({ id: eventRegistrations.id, userId: eventRegistrations.userId })
        .from(eventRegistrations)
        .where(registered(eventId))
        .orderBy(asc(eventRegistrations.id));
    },
    /**
     * Up to `limit` registrations still waiting for a notice, in id order after `after`: registered,
     * not yet marked for it, and (for a reminder) registered by `registeredBy`, the moment it was due.
     */
    awaiting(eventId: string, kind: NoticeKind, options: { registeredBy?: Date; after?: string; limit: number }): Promise<Registrant[]> {
      const { registeredBy, after, limit } = options;
      return db
        .select({ id: eventRegistrations.id, userId: eventRegistrations.userId })
        .from(eventRegistrations)
        .where(
          and(
            registered(eventId),
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
    /**
     * After the event moved: each reminder whose new moment is still ahead (`ahead`) is unmarked, so it
     * goes out then; one whose moment has already passed is marked, since the "moved" mail just said
     * when the event starts and a late reminder would repeat it.
     */
    async resetReminders(eventId: string, ahead: Record<ReminderKind, boolean>): Promise<void> {
      const mark = (kind: ReminderKind) => (ahead[kind] ? null : sql`coalesce(${NOTICE_COLUMN[kind]}, now())`);
      await db
        .update(eventRegistrations)
        .set({ dayReminderAt: mark('day'), hourReminderAt: mark('hour') })
        .where(registered(eventId));
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

export function createEventStore(db: DbOrTx) {
  const deps: StoreDeps = { db };
  return { ...registrationRows(deps), ...reminderRows(deps) };
}

export type EventStore = ReturnType<typeof createEventStore>;
