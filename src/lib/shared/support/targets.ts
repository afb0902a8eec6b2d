/**
 * The support desk's promises and words, shared by the server, the pages and the islands: the
 * first-response target per level (Premium is Priority: 1 business day; the others 3), what each
 * status is called, the attachment limit, and how long is left before a target. Pure module (the
 * business-day arithmetic that needs a time-zone library is in business-days.ts, server side).
 */
import { formatDuration } from 'date-fns/formatDuration';
import { intervalToDuration } from 'date-fns/intervalToDuration';
import type { AccessLevel } from '../access.ts';

/** The zone whose Monday-Friday are business days: the consultancy's office in Baltimore. */
export const SUPPORT_TIME_ZONE = 'America/New_York';

/** Business days (Monday-Friday in SUPPORT_TIME_ZONE) within which staff answer a request first. */
export const FIRST_RESPONSE_BUSINESS_DAYS: Readonly<Record<AccessLevel, number>> = { free: 3, subscriber: 3, premium: 1 };

/** Whether requests opened at this level are Priority (they come first in staff's queue). */
export const isPriority = (level: AccessLevel) => level === 'premium';

/** The promise as the account and pricing pages word it. */
export function responseTargetText(level: AccessLevel): string {
  const days = FIRST_RESPONSE_BUSINESS_DAYS[level];
  const within = `first response within ${days} business ${days === 1 ? 'day' : 'days'}`;
  return isPriority(level) ? `Priority support: ${within}` : `Support: ${within}`;
}

export const REQUEST_STATUSES = ['open', 'waiting', 'closed'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** What each status is called on the member's and staff's screens. */
export const STATUS_LABEL: Readonly<Record<RequestStatus, string>> = {
  open: 'Open',
  waiting: 'Waiting on member',
  closed: 'Closed',
};

/** The member's view of a status: "waiting on member" reads as waiting on them. */
export const MEMBER_STATUS_LABEL: Readonly<Record<RequestStatus, string>> = {
  open: 'Open',
  waiting: 'Waiting for your reply',
  closed: 'Closed',
};

/** Largest attachment a message may carry (checked by the server while streaming; the form says so first). */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
/** What the attachment field accepts (the server judges by the bytes, not by this list). */
export const ATTACHMENT_ACCEPT = 'image/*,video/*,application/pdf';

/**
 * The time left before a first-response target, or by how much it was missed, in its two largest
 * units ("1 day 4 hours", "35 minutes"): the queue's countdown.
 */
export function countdown(respondBy: Date | string, now: Date = new Date()): { overdue: boolean; text: string } {
  const due = typeof respondBy === 'string' ? new Date(respondBy) : respondBy;
  const overdue = due.getTime() < now.getTime();
  const [start, end] = overdue ? [due, now] : [now, due];
  const duration = intervalToDuration({ start, end });
  const units = (['years', 'months', 'days', 'hours', 'minutes'] as const).filter((u) => (duration[u] ?? 0) > 0).slice(0, 2);
  const text = units.length === 0 ? 'less than a minute' : formatDuration(duration, { format: [...units] });
  return { overdue, text: overdue ? `Overdue by ${text}` : `Due in ${text}` };
}
