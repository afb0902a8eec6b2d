/**
 * What the Newsletter tab says about an issue: the audience and level labels, the status badge, the
 * accounting line, and times in the editor's own time zone (the browser's), with the zone named, as
 * the schedule input takes them; and when the list is read again. Pure: no DOM, so it is unit tested.
 */
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { AUDIENCES, PREVIEW_LEVELS as LEVELS, type Audience as FixedAudience } from '#shared/newsletter.ts';
import type { IssueStats, IssueStatus, PreviewLevel } from './newsletter-api.ts';

/** What the list's reading-again rules look at. */
type IssueLike = { id: string; subject: string; status: IssueStatus; sendAt: string | null };

const AUDIENCE_LABEL: Record<FixedAudience, string> = {
  newsletter: 'Newsletter subscribers',
  free: 'Free members',
  subscriber: 'Subscribers',
  premium: 'Premium members',
};
const LEVEL_LABEL: Record<PreviewLevel, string> = { visitor: 'Visitor', free: 'Free', subscriber: 'Subscriber', premium: 'Premium' };

/** The audience checkboxes, in the order the form shows them (the API's own list). */
export const AUDIENCE_OPTIONS: readonly { id: FixedAudience; label: string }[] = AUDIENCES.map((id) => ({ id, label: AUDIENCE_LABEL[id] }));

/** The levels a copy can be previewed and test-sent at (the API's own list). */
export const PREVIEW_LEVELS: readonly { id: PreviewLevel; label: string }[] = LEVELS.map((id) => ({ id, label: LEVEL_LABEL[id] }));

export const STATUS_LABEL: Record<IssueStatus, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Not sent',
};

export const STATUS_BADGE: Record<IssueStatus, string> = {
  draft: 'bg-slate-100 text-slate-700',
  scheduled: 'bg-amber-100 text-amber-800',
  sending: 'bg-blue-100 text-blue-800',
  sent: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-red-100 text-red-800',
};

/** Why an issue has a status, where the status alone does not say (shown beside the badge). */
export const STATUS_NOTE: Partial<Record<IssueStatus, string>> = {
  failed: 'The scheduled send failed and nothing went out (check the body). Change it, then send or schedule it again.',
};

/** Only these can still be changed, scheduled or sent (the server answers 409 for the others). */
export const isEditable = (status: IssueStatus) => status === 'draft' || status === 'scheduled' || status === 'failed';

/** "1 recipient", "12 recipients". */
export const recipientsText = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'recipient' : 'recipients'}`;

/** "Newsletter subscribers, Free members and Premium members", in the form's order. */
export function audienceText(audience: readonly string[]): string {
  const labels = AUDIENCE_OPTIONS.filter((o) => audience.includes(o.id)).map((o) => o.label);
  const segments = audience.filter((a) => a.startsWith('segment:')).length;
  if (segments) labels.push(segments === 1 ? 'a segment' : `${segments} segments`);
  if (labels.length <= 1) return labels[0] ?? 'Nobody';
  return `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)!}`;
}

/** "120 sent / 2 failed / 3 suppressed / 5 pending of 130 recipients". */
export function accountingText(stats: IssueStats): string {
  return `${stats.sent} sent / ${stats.failed} failed / ${stats.suppressed} suppressed / ${stats.pending} pending of ${stats.recipients} recipients`;
}

/** The time zone this browser runs in (the editor's zone). */
export function editorZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** An instant as the clock on the wall reads it in `zone`: "March 4, 2026, 09:00". */
export function zonedTime(iso: string, zone: string): string {
  return format(new TZDate(iso, zone), 'MMMM d, yyyy, HH:mm');
}

/** An instant as a datetime-local input holds it in `zone`: "2026-03-04T09:00". */
export function localInputValue(iso: string, zone: string): string {
  return format(new TZDate(iso, zone), "yyyy-MM-dd'T'HH:mm");
}

/** The schedule input's first offer: the start of the hour after next, in `zone`. */
export function defaultSendAt(now: Date, zone: string): string {
  const next = new TZDate(now.getTime() + 2 * 3_600_000, zone);
  next.setMinutes(0, 0, 0);
  return format(next, "yyyy-MM-dd'T'HH:mm");
}

/** When an issue goes or went out, in the editor's zone, naming the zone (and the zone it was scheduled in, if another). */
export function whenText(
  issue: { status: IssueStatus; sendAt: string | null; timeZone: string | null; sentAt: string | null },
  zone: string,
): string {
  if (issue.sentAt && (issue.status === 'sent' || issue.status === 'sending')) return `Sent ${zonedTime(issue.sentAt, zone)} (${zone})`;
  if (issue.status === 'scheduled' && issue.sendAt) {
    const other = issue.timeZone && issue.timeZone !== zone ? `; scheduled in ${issue.timeZone}` : '';
    return `Scheduled for ${zonedTime(issue.sendAt, zone)} (${zone}${other})`;
  }
  return '';
}

/** How often the list is read again while an issue is sending (or a scheduled one falls due). */
export const POLL_MS = 3_000;

/** How long after its time a scheduled issue is watched for the worker to start it (no worker: the list stops asking). */
const DUE_WATCH_MS = 5 * 60_000;

/** Whether the list should be read again soon: an issue is sending, or a scheduled one has just fallen due. */
export function isMoving(issues: readonly IssueLike[], now: number): boolean {
  const due = (i: IssueLike) => i.sendAt !== null && Date.parse(i.sendAt) <= now + POLL_MS && Date.parse(i.sendAt) > now - DUE_WATCH_MS;
  return issues.some((i) => i.status === 'sending' || (i.status === 'scheduled' && due(i)));
}

/** What changed status between two reads, in words ("“June news” is now Sent."). */
export function statusChanges(before: readonly IssueLike[], after: readonly IssueLike[]): string {
  const old = new Map(before.map((i) => [i.id, i.status]));
  return after
    .filter((i) => old.has(i.id) && old.get(i.id) !== i.status)
    .map((i) => `“${i.subject}” is now ${STATUS_LABEL[i.status]}.`)
    .join(' ');
}
