/**
 * The events' mails, queued in the caller's transaction so they commit with the change that sends
 * them: the data every event mail shares, the calendar file attached to the confirmation and to the
 * "moved" notice, and one registration's timed notice (a reminder or the cancellation notice),
 * claimed on its row first so it goes out once. Members' addresses and levels are read through the
 * users domain's read-only directory. No mail carries the join URL or the recording.
 */
import { checkAccess } from '#shared/access.ts';
import type { EventItem } from '#shared/content/registry.ts';
import { timeUntil } from '#shared/events/schedule.ts';
import type { EmailService } from '../email/index.ts';
import type { EmailAttachment } from '../email/index.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import { memberDirectory } from '../users/index.ts';
import { calendarFilename, eventCalendar, eventUrl } from './calendar.ts';
import { createEventStore, type NoticeKind, type Registrant } from './store.ts';

/** What queuing an event mail needs. */
export interface EventMailer {
  outbox: EmailService;
  siteUrl: string;
}

/** Profiles asked for per query: an `IN` list stays far below Postgres's 65,535 parameters whatever the capacity. */
const CHUNK = 1000;

/** The profiles of `userIds` (missing ones left out), read through the users domain's directory in chunks. */
export async function profilesOf(db: DbOrTx, userIds: string[]) {
  const directory = memberDirectory(db);
  const profiles = [];
  for (let i = 0; i < userIds.length; i += CHUNK) profiles.push(...(await directory.byIds(userIds.slice(i, i + CHUNK))));
  return profiles;
}

/** The mail data every event mail shares (functions/email/templates/event-mail.ts). */
export function eventMailData(event: EventItem, siteUrl: string) {
  return {
    title: event.title,
    url: eventUrl(siteUrl, event.slug),
    startsAt: event.startsAt,
    timeZone: event.timeZone,
    durationMinutes: event.durationMinutes,
    host: event.host,
    address: event.format === 'in-person' ? event.address : undefined,
  };
}

/** The event's calendar file as a mail attachment; `now` is its DTSTAMP. */
export function calendarAttachment(event: EventItem, siteUrl: string, now: Date): EmailAttachment {
  return {
    filename: calendarFilename(event.slug),
    contentType: 'text/calendar; charset=utf-8',
    content: eventCalendar(event, siteUrl, now),
  };
}

/**
 * Queues one registration's reminder or cancellation notice, if the member may have it and nobody
 * queued it yet: the level is read in this transaction and checked with the access rule (reminders
 * only: a cancellation concerns everyone registered), then the row is claimed. True when queued.
 */
export async function queueNotice(
  tx: DbOrTx,
  { outbox, siteUrl }: EventMailer,
  event: EventItem,
  kind: NoticeKind,
  registration: Registrant,
  now: Date,
): Promise<boolean> {
  const [profile] = await memberDirectory(tx).byIds([registration.userId]);
  if (!profile) return false;
  if (kind !== 'cancelled' && !checkAccess(profile, event.accessLevel).allowed) return false;
  if (!(await createEventStore(tx).claimNotice(registration.id, kind))) return false;
  const data = eventMailData(event, siteUrl);
  const common = { to: profile.email, userId: profile.id };
  if (kind === 'cancelled') await outbox.enqueue(tx, { ...common, template: 'event-cancelled', data });
  else await outbox.enqueue(tx, { ...common, template: 'event-reminder', data: { ...data, startsIn: timeUntil(event, now) } });
  return true;
}

/** Queues the "moved" notice with the updated calendar file to each of `registrations`: how many were queued. */
export async function queueMoved(
  tx: DbOrTx,
  { outbox, siteUrl }: EventMailer,
  event: EventItem,
  previousStartsAt: string,
  registrations: Registrant[],
  now: Date,
): Promise<number> {
  const profiles = await profilesOf(
    tx,
    registrations.map((r) => r.userId),
  );
  const data = { ...eventMailData(event, siteUrl), previousStartsAt };
  const attachments = [calendarAttachment(event, siteUrl, now)];
  for (const profile of profiles)
    await outbox.enqueue(tx, { to: profile.email, userId: profile.id, template: 'event-moved', data, attachments });
  return profiles.length;
}
