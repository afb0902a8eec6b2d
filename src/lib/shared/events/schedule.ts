/**
 * An event's moments, from its start as a UTC instant: when the join link opens and closes, and when
 * each reminder is due and until when it may still go out. Everything is elapsed time from the UTC
 * start (24 hours are 24 real hours), so a daylight-saving change between a reminder and the event
 * moves nothing; only how the start reads on a wall clock differs (format.ts words it). Shared by the
 * server (join route, reminder tick) and the islands (when to show the join button). Pure module.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The join link opens this many minutes before the start, and closes at the end. */
export const JOIN_OPENS_MINUTES = 15;

export const REMINDER_KINDS = ['day', 'hour'] as const;
/** The 24-hour and the 1-hour reminder. */
export type ReminderKind = (typeof REMINDER_KINDS)[number];

/**
 * When each reminder is due (before the start) and until when it may still go out: the 24-hour one
 * until the 1-hour one is due, the 1-hour one until the start. A reminder whose window has passed (the
 * server was down, or the member registered later) is skipped, never sent late: a member who
 * registered inside a window has just had the confirmation, which says when the event starts.
 */
const WINDOWS: Record<ReminderKind, { before: number; until: number }> = {
  day: { before: 24 * HOUR, until: HOUR },
  hour: { before: HOUR, until: 0 },
};

/** The moments of one event. */
export interface EventTimes {
  startsAt: string;
  durationMinutes: number;
}

const startOf = (event: Pick<EventTimes, 'startsAt'>) => Date.parse(event.startsAt);

/** The end of the event: its duration of elapsed time after the start. The one place an end is computed. */
export function endsAt(event: EventTimes): Date {
  return new Date(startOf(event) + event.durationMinutes * MINUTE);
}

/** Whether the event has ended at `now`: an event is upcoming (or under way) until its end. */
export function hasEnded(event: EventTimes, now: Date | number = Date.now()): boolean {
  return endsAt(event).getTime() <= Number(now);
}

/** When the join link opens (15 minutes before the start). */
export function joinOpensAt(event: Pick<EventTimes, 'startsAt'>): Date {
  return new Date(startOf(event) - JOIN_OPENS_MINUTES * MINUTE);
}

/** Where `now` stands against the join window: before it opens, while open (until the end), or after the end. */
export function joinWindow(event: EventTimes, now: Date = new Date()): 'before' | 'open' | 'ended' {
  if (now < joinOpensAt(event)) return 'before';
  return now < endsAt(event) ? 'open' : 'ended';
}

/** When a reminder is due: 24 hours or 1 hour of elapsed time before the start. */
export function reminderDueAt(event: Pick<EventTimes, 'startsAt'>, kind: ReminderKind): Date {
  return new Date(startOf(event) - WINDOWS[kind].before);
}

/** Until when a reminder may go out (exclusive): the next reminder's moment, or the start. */
export function reminderClosesAt(event: Pick<EventTimes, 'startsAt'>, kind: ReminderKind): Date {
  return new Date(startOf(event) - WINDOWS[kind].until);
}

/** The reminder whose window `now` is in, if any (the windows do not overlap). */
export function dueReminder(event: Pick<EventTimes, 'startsAt'>, now: Date = new Date()): ReminderKind | undefined {
  return REMINDER_KINDS.find((kind) => now >= reminderDueAt(event, kind) && now < reminderClosesAt(event, kind));
}

/** "24 hours", "3 hours", "45 minutes": how long until the start, rounded, for a reminder's words. */
export function timeUntil(event: Pick<EventTimes, 'startsAt'>, now: Date = new Date()): string {
  const minutes = Math.max(1, Math.round((startOf(event) - now.getTime()) / MINUTE));
  if (minutes < 90) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  return `${hours} hours`;
}
