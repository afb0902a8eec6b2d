/**
 * The events' mails to registered members: the registration confirmation (the calendar file rides
 * along as an attachment, added by the events service), the 24-hour and 1-hour reminders, the
 * notice that staff moved the event (with the updated calendar file) and the notice that staff
 * cancelled it. Each says when the event starts in the event's own time
 * zone (its name follows the date, so a reminder across a daylight-saving change names the right
 * one) and links to the event page; none carries the join URL, which the page's join button asks
 * the server for once the link opens.
 */
import { formatDuration, formatInZone } from '#shared/events/format.ts';
import { html } from './html.ts';
import { button, layout, textLayout } from './layout.ts';
import type { RenderedEmail, TemplateContext } from './rendered.ts';

/** What every event mail is given. */
export interface EventMailData {
  title: string;
  /** The event page. */
  url: string;
  /** The start as a UTC instant, and the event's zone it is shown in. */
  startsAt: string;
  timeZone: string;
  durationMinutes: number;
  host: string;
  /** An in-person event's address; online events have none. */
  address?: string | undefined;
}

/** "Thu 10 Dec 2026, 15:00 GMT (Europe/London), 1 hour": the zone's name as it is on that date. */
const when = (d: EventMailData) => `${formatInZone(d.startsAt, d.timeZone)}, ${formatDuration(d.durationMinutes)}`;
const where = (d: EventMailData) => d.address ?? 'Online. The join button appears on the event page 15 minutes before the start.';

function detailsHtml(d: EventMailData) {
  return html`<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px;font-size:15px">
<tr><td style="padding:2px 12px 2px 0;color:#64748b;vertical-align:top">When</td><td>${when(d)}</td></tr>
<tr><td style="padding:2px 12px 2px 0;color:#64748b;vertical-align:top">Where</td><td>${where(d)}</td></tr>
<tr><td style="padding:2px 12px 2px 0;color:#64748b;vertical-align:top">Host</td><td>${d.host}</td></tr>
</table>`;
}

const detailsText = (d: EventMailData) => `When: ${when(d)}\nWhere: ${where(d)}\nHost: ${d.host}`;

function eventMail(
  siteUrl: string,
  d: EventMailData,
  copy: { subject: string; preheader: string; heading: string; intro: string; action: string; url: string; outro?: string },
): RenderedEmail {
  return {
    subject: copy.subject,
    html: layout({
      siteUrl,
      preheader: copy.preheader,
      content: html`<h1 style="font-size:22px;margin:0 0 16px">${copy.heading}</h1>
<p style="margin:0 0 16px">${copy.intro}</p>
${detailsHtml(d)}
${button(copy.url, copy.action)}
${copy.outro ? html`<p style="margin:0;color:#64748b;font-size:14px">${copy.outro}</p>` : ''}`,
    }),
    text: textLayout(
      `${copy.heading}\n\n${copy.intro}\n\n${detailsText(d)}\n\n${copy.action}: ${copy.url}${copy.outro ? `\n\n${copy.outro}` : ''}`,
    ),
  };
}

/** The event templates, by name. */
export const eventTemplates = {
  'event-registered': (d: EventMailData, { siteUrl }: TemplateContext): RenderedEmail =>
    eventMail(siteUrl, d, {
      subject: `You're registered: ${d.title}`,
      preheader: `Your seat is saved. The calendar invitation is attached.`,
      heading: `You're registered for ${d.title}`,
      intro: 'Your seat is saved. The attached calendar file adds the event to your calendar.',
      action: 'View the event',
      url: d.url,
      outro: 'We will remind you a day and an hour before the start. Cannot make it? Cancel your registration on the event page.',
    }),

  'event-reminder': (d: EventMailData & { startsIn: string }, { siteUrl }: TemplateContext): RenderedEmail =>
    eventMail(siteUrl, d, {
      subject: `Reminder: ${d.title} starts in ${d.startsIn}`,
      preheader: `${d.title} starts in ${d.startsIn}.`,
      heading: `${d.title} starts in ${d.startsIn}`,
      intro: `A reminder of the event you registered for.`,
      action: 'Open the event page',
      url: d.url,
      outro: 'Cannot make it after all? Cancel your registration on the event page, so someone else can have the seat.',
    }),

  'event-moved': (d: EventMailData & { previousStartsAt: string }, { siteUrl }: TemplateContext): RenderedEmail =>
    eventMail(siteUrl, d, {
      subject: `New time: ${d.title}`,
      preheader: `${d.title} has moved to ${formatInZone(d.startsAt, d.timeZone)}.`,
      heading: `${d.title} has a new time`,
      intro: `The event you registered for has moved: it was to start ${formatInZone(d.previousStartsAt, d.timeZone)}. Your seat is kept. The attached calendar file updates the entry in your calendar.`,
      action: 'View the event',
      url: d.url,
      outro:
        'We will remind you a day and an hour before the new start. Cannot make the new time? Cancel your registration on the event page.',
    }),

  'event-cancelled': (d: EventMailData, { siteUrl }: TemplateContext): RenderedEmail =>
    eventMail(siteUrl, d, {
      subject: `Cancelled: ${d.title}`,
      preheader: `${d.title} will not take place.`,
      heading: `${d.title} has been cancelled`,
      intro: 'We are sorry: the event you registered for will not take place. There is nothing you need to do.',
      action: 'See our other events',
      url: `${siteUrl}/events`,
    }),
};
