/**
 * Webinars and events for members: registering and cancelling (one click, seats held under a
 * per-event lock), the join link and the recording (to registered members the access rule lets in,
 * checked at request time), the member's upcoming events, the calendar file, and staff's list of
 * registrants. The reminders and cancellation notices run apart (notices.ts), as do staff's changes
 * to an event (changes.ts). Events are content items of type `event` (git or the creator tools),
 * found by slug in the routes and kept by their stable id (`item.id`) in registrations.
 */
import { checkAccess } from '#shared/access.ts';
import type { EventItem } from '#shared/content/registry.ts';
import { hasEnded, joinOpensAt, joinWindow } from '#shared/events/schedule.ts';
import type { ContentService } from '../content/index.ts';
import type { EmailService } from '../email/index.ts';
import { assertAccess } from '../content/index.ts';
import type { Limit, RateLimitService } from '../platform/abuse/service.ts';
import type { Db } from '../platform/db/client.ts';
import { AppError } from '../platform/errors.ts';
import type { Viewer } from '../users/index.ts';
import { memberAccess } from '../users/index.ts';
import { memberData, type WebhookEmitter } from '../outbound/index.ts';
import { calendarFilename, eventCalendar } from './calendar.ts';
import { calendarAttachment, eventMailData } from './mails.ts';
import { createSeatCount } from './seat-count.ts';
import { createEventStore } from './store.ts';

export interface EventServiceDeps {
  db: Db;
  content: ContentService;
  outbox: EmailService;
  /** The shared per-account limits (platform/abuse): registrations that mail a confirmation are counted. */
  limiter: RateLimitService;
  siteUrl: string;
  /** Outbound webhooks: event.registered, in the registration's transaction. */
  webhooks: WebhookEmitter;
  /** Now, as the join window and registration see it (tests move it). */
  clock?: () => Date;
}

/** What the event page's island shows: whether the caller holds a seat, and how many are left. */
export interface RegistrationState {
  registered: boolean;
  /** Seats left; null when the event has no capacity. */
  seatsLeft: number | null;
  /** Whether the event has a recording (its URL comes from the recording route). */
  hasRecording: boolean;
}

/** A link the caller may open now, or when the join link opens (the route answers 409 until then). */
export type JoinAnswer = { open: true; url: string } | { open: false; opensAt: string };

/**
 * Registrations that take a seat, and so mail a confirmation: per member and event a day (a change of
 * mind or two is fine; registering and cancelling 40 times in a row mailed 21 confirmations), and
 * per member an hour across events. Counted in the registration's transaction, so a refused one
 * (full, closed, already registered) costs nothing.
 */
export const REGISTRATION_LIMITS = {
  event: { name: 'events:register', max: 5, windowSeconds: 24 * 3600 },
  member: { name: 'events:register-member', max: 20, windowSeconds: 3600 },
} satisfies Record<string, Limit>;

const forbidden = (message: string) => new AppError('forbidden', message);
const seatsLeft = (event: EventItem, taken: number) => (event.capacity === undefined ? null : Math.max(0, event.capacity - taken));

/** What the registration's steps share: the service's dependencies, its clock and the kept seat counts. */
interface EventParts extends EventServiceDeps {
  clock: () => Date;
  seats: ReturnType<typeof createSeatCount>;
  store: ReturnType<typeof createEventStore>;
}

/** The member's registrations for events not over yet, soonest first (the account page). */
async function myEvents({ store, content, clock }: EventParts, viewer: Viewer) {
  const now = clock();
  const rows = await store.mine(viewer.id);
  const byId = new Map(rows.length ? (await content.list('event')).map((e) => [e.id, e]) : []);
  const events = rows.flatMap((row) => {
    const event = byId.get(row.eventId);
    if (!event || hasEnded(event, now)) return [];
    return [
      {
        slug: event.slug,
        title: event.title,
        startsAt: event.startsAt,
        timeZone: event.timeZone,
        durationMinutes: event.durationMinutes,
        format: event.format,
        cancelled: event.cancelled,
        joinOpensAt: joinOpensAt(event).toISOString(),
        /** Whether the member's level still lets them in (the join link asks the server anyway). */
        entitled: checkAccess(viewer, event.accessLevel).allowed,
      },
    ];
  });
  events.sort((a, b) => a.startsAt.localeCompare(b.startsAt));
  return { events };
}

/** Registration closes when staff cancel the event and when it ends. */
function assertOpen({ clock }: EventParts, event: EventItem): void {
  if (event.cancelled) throw new AppError('conflict', 'This event was cancelled, so registration is closed.');
  if (hasEnded(event, clock())) throw new AppError('conflict', 'This event has ended, so registration is closed.');
}

/**
 * Takes a seat and queues the confirmation with the calendar file, in one transaction under the
 * event's lock, within the member's registration limits. The event is read again under the lock:
 * a write by staff that committed meanwhile (removed, cancelled, moved) is what this registration sees.
 */
async function takeSeat(deps: EventParts, viewer: Viewer, found: EventItem): Promise<RegistrationState> {
  const { db, content, outbox, limiter, siteUrl, webhooks, clock, seats } = deps;
  const state = await db.transaction(async (tx) => {
    const txStore = createEventStore(tx);
    await txStore.lockEvent(found.id);
    const event = await content.getById('event', found.id, tx);
    if (!event) throw new AppError('not_found', 'Event not found');
    assertAccess(viewer, event.accessLevel, 'event');
    assertOpen(deps, event);
    const [existing, taken] = await Promise.all([txStore.find(event.id, viewer.id), txStore.seatsTaken(event.id)]);
    const base = { registered: true, hasRecording: Boolean(event.recordingUrl) };
    if (existing?.status === 'registered') return { ...base, seatsLeft: seatsLeft(event, taken), taken };
    if (event.capacity !== undefined && taken >= event.capacity) throw new AppError('conflict', 'This event is full.');
    await limiter.within(tx).enforce([
      [REGISTRATION_LIMITS.event, `${viewer.id}:${event.id}`],
      [REGISTRATION_LIMITS.member, viewer.id],
    ]);
    await txStore.register(event.id, viewer.id);
    const member = memberData({ ...viewer, name: (await memberAccess(tx).byId(viewer.id))?.name ?? null });
    await webhooks.emit(
      tx,
      'event.registered',
      { member, event: { id: event.id, slug: event.slug, title: event.title, startsAt: event.startsAt } },
      viewer.id,
    );
    await outbox.enqueue(tx, {
      to: viewer.email,
      template: 'event-registered',
      data: eventMailData(event, siteUrl),
      userId: viewer.id,
      attachments: [calendarAttachment(event, siteUrl, clock())],
    });
    return { ...base, seatsLeft: seatsLeft(event, taken + 1), taken: taken + 1 };
  });
  const { taken, ...answer } = state;
  seats.set(found.id, taken);
  return answer;
}

export function createEventService({ db, content, outbox, limiter, siteUrl, webhooks, clock = () => new Date() }: EventServiceDeps) {
  const store = createEventStore(db);
  const seats = createSeatCount(store);
  const deps: EventParts = { db, content, outbox, limiter, siteUrl, webhooks, clock, seats, store };

  async function eventOf(slug: string): Promise<EventItem> {
    const event = await content.get('event', slug);
    if (!event) throw new AppError('not_found', 'Event not found');
    return event;
  }

  async function stateOf(event: EventItem, viewer: Viewer | undefined): Promise<RegistrationState> {
    // Without a capacity there is nothing to count.
    const [row, taken] = await Promise.all([
      viewer ? store.find(event.id, viewer.id) : undefined,
      event.capacity === undefined ? 0 : seats.taken(event.id),
    ]);
    return { registered: row?.status === 'registered', seatsLeft: seatsLeft(event, taken), hasRecording: Boolean(event.recordingUrl) };
  }

  /** The event for a registrant the access rule lets in: 403 for anyone else. */
  async function entitledRegistrant(viewer: Viewer, slug: string, what: string): Promise<EventItem> {
    const event = await eventOf(slug);
    assertAccess(viewer, event.accessLevel, 'event');
    const row = await store.find(event.id, viewer.id);
    if (row?.status !== 'registered') throw forbidden(`Register for this event to get its ${what}.`);
    return event;
  }

  return {
    /** GET /api/events/{slug}/registration: the island's state; visitors get the seats only. */
    async state(viewer: Viewer | undefined, slug: string): Promise<RegistrationState> {
      return stateOf(await eventOf(slug), viewer);
    },

    /**
     * POST /api/events/{slug}/registration: takes a seat and mails the confirmation with the calendar
     * file; concurrent registrations never overbook. Registering again while registered changes
     * nothing and mails nothing.
     */
    async register(viewer: Viewer, slug: string): Promise<RegistrationState> {
      const event = await eventOf(slug);
      assertAccess(viewer, event.accessLevel, 'event');
      assertOpen(deps, event);
      return takeSeat(deps, viewer, event);
    },

    /** DELETE /api/events/{slug}/registration: gives the seat back; without a registration, nothing changes. */
    async cancel(viewer: Viewer, slug: string): Promise<RegistrationState> {
      const event = await eventOf(slug);
      assertOpen(deps, event);
      if (await store.cancel(event.id, viewer.id)) seats.forget(event.id);
      return stateOf(event, viewer);
    },

    /** GET /api/events/{slug}/join: the join URL, from 15 minutes before the start until the end. */
    async join(viewer: Viewer, slug: string): Promise<JoinAnswer> {
      const event = await entitledRegistrant(viewer, slug, 'join link');
      if (event.cancelled) throw forbidden('This event was cancelled.');
      if (!event.joinUrl) throw new AppError('not_found', 'This event takes place in person: it has no join link.');
      const window = joinWindow(event, clock());
      if (window === 'ended') throw new AppError('conflict', 'This event has ended.');
      if (window === 'before') return { open: false, opensAt: joinOpensAt(event).toISOString() };
      return { open: true, url: event.joinUrl };
    },

    /** GET /api/events/{slug}/recording: the recording, for its registrants. */
    async recording(viewer: Viewer, slug: string): Promise<{ url: string }> {
      const event = await entitledRegistrant(viewer, slug, 'recording');
      if (!event.recordingUrl) throw new AppError('not_found', 'This event has no recording yet.');
      return { url: event.recordingUrl };
    },
    /** GET /api/events/registrations: the member's registrations for events not over yet, soonest first (the account page). */
    mine: (viewer: Viewer) => myEvents(deps, viewer),

    /** GET /events/{slug}.ics: the public calendar file (no join URL, no recording). */
    async calendar(slug: string): Promise<{ filename: string; body: string }> {
      return { filename: calendarFilename(slug), body: eventCalendar(await eventOf(slug), siteUrl, clock()) };
    },

    /** The event, for staff's registrant list (registrants.ts). */
    eventOf,
  };
}

export type EventService = ReturnType<typeof createEventService>;
