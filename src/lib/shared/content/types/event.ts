/**
 * Webinars and events: a start in the organiser's time zone, a duration, a host, online (a join URL)
 * or in person (an address), an optional capacity and recording. The join URL and the recording are
 * gated: they reach only registered members entitled to the event, through the events API at request
 * time (functions/events/), never a page, list, feed or the public API. The body describes the event
 * and is public.
 */
import { z } from 'zod';
import { SITE } from '../../site.ts';
import { defineContentType } from '../content-type.ts';
import { MAX_BODY_CHARS } from '../markdown.ts';
import { ONE_LINE, ONE_LINE_MESSAGE, staffBody } from '../schema.ts';
import { EVENT_FORMATS, LocalDateTimeSchema, TimeZoneSchema, utcInstant } from '../../events/time.ts';

const HttpsUrl = z.url({ protocol: /^https$/ }).max(2048);
const Duration = z.coerce
  .number()
  .int()
  .min(5)
  .max(24 * 60);
const Capacity = z.coerce.number().int().min(1).max(100_000);
const Address = z.string().trim().min(3).max(300).regex(ONE_LINE, ONE_LINE_MESSAGE);
const Host = z.string().trim().min(1).max(120).regex(ONE_LINE, ONE_LINE_MESSAGE);

/** An online event needs its join URL, an in-person one its address: the problem goes on the missing field. */
function placeIsComplete(event: { format?: string | undefined; joinUrl?: string | undefined; address?: string | undefined }) {
  if (event.format === 'in-person')
    return Boolean(event.address) || { path: 'address' as const, message: 'An in-person event needs an address' };
  return Boolean(event.joinUrl) || { path: 'joinUrl' as const, message: 'An online event needs a join URL (https)' };
}

export const event = defineContentType({
  type: 'event',
  folder: 'events',
  apiSegment: 'events',
  path: '/events',
  labels: {
    singular: 'event',
    plural: 'events',
    listTitle: 'Webinars & Events',
    listIntro: 'Live sessions with our consultants: webinars, workshops and member meetups.',
    loadError: 'Failed to load events.',
    emptyAll: 'No events found.',
    emptyFiltered: 'No events match your search criteria.',
    searchPlaceholder: 'Search events…',
    name: 'Event',
    itemLabel: 'Event',
  },
  filters: ['search', 'tag'],
  soonestFirst: 'startsAt',
  lastsMinutes: 'durationMinutes',
  frontmatter: {
    startsAt: LocalDateTimeSchema.describe('Start in the event’s own time zone, e.g. 2026-12-10T15:00.'),
    timeZone: TimeZoneSchema.describe('IANA time zone of the start, e.g. Europe/London.'),
    durationMinutes: Duration.describe('Length in minutes.'),
    host: Host.optional().describe('Who runs it; defaults to the team name.'),
    format: z.enum(EVENT_FORMATS).describe('online (a join URL) or in-person (an address).'),
    joinUrl: HttpsUrl.optional().describe('Online events: the meeting link. Gated: only registered, entitled members get it.'),
    address: Address.optional().describe('In-person events: where it takes place.'),
    capacity: Capacity.optional().describe('Seats; no limit when absent.'),
    recordingUrl: HttpsUrl.optional().describe('The recording, once there is one. Gated like the join URL.'),
    cancelled: z.boolean().default(false).describe('A cancelled event stays listed, marked cancelled; registration closes.'),
  },
  input: {
    startsAt: LocalDateTimeSchema,
    timeZone: TimeZoneSchema,
    durationMinutes: Duration,
    format: z.enum(EVENT_FORMATS).default('online'),
    joinUrl: HttpsUrl.optional(),
    address: Address.optional(),
    capacity: Capacity.optional(),
    recordingUrl: HttpsUrl.optional(),
    content: staffBody(MAX_BODY_CHARS).default(''),
  },
  fields: {
    /** The start as a UTC instant (ISO 8601 with Z): what every comparison, reminder and calendar uses. */
    startsAt: z.iso.datetime(),
    /** The start as written, in `timeZone` (YYYY-MM-DDTHH:mm). */
    localStart: LocalDateTimeSchema,
    timeZone: TimeZoneSchema,
    durationMinutes: z.number().int(),
    host: z.string().default(SITE.teamName),
    format: z.enum(EVENT_FORMATS),
    joinUrl: z.string().optional(),
    address: z.string().optional(),
    capacity: z.number().int().optional(),
    recordingUrl: z.string().optional(),
    cancelled: z.boolean().default(false),
    /** The description: MDX from git, or Markdown written in the creator tools. Public. */
    content: z.string(),
    contentFormat: z.enum(['mdx', 'markdown']).default('markdown'),
    /** When the creator tools last wrote the event (absent for MDX): orders its calendar file's revisions (SEQUENCE). */
    revisedAt: z.iso.datetime().optional(),
  },
  publicFields: {
    startsAt: z.string(),
    localStart: z.string(),
    timeZone: z.string(),
    durationMinutes: z.number(),
    host: z.string(),
    format: z.enum(EVENT_FORMATS),
    address: z.string().optional(),
    capacity: z.number().optional(),
    cancelled: z.boolean(),
    /** Whether a recording exists (its URL is gated). */
    hasRecording: z.boolean().optional(),
    /** The description as sanitised HTML (added by the server's projection). */
    bodyHtml: z.string().optional(),
  },
  gated: ['joinUrl', 'recordingUrl'],
  createFields: [
    'startsAt',
    'timeZone',
    'durationMinutes',
    'host',
    'format',
    'joinUrl',
    'address',
    'capacity',
    'recordingUrl',
    'cancelled',
    'content',
  ],
  drafting: {
    title: '{subject}: Live Webinar',
    description: 'A live session on {topic}: what works today, a worked example and your questions answered.',
    outline: 'agenda',
    fallbackTag: 'Webinar',
  },
  refine: placeIsComplete,
  derivePublic: (fields) => ({ hasRecording: Boolean(fields.recordingUrl) }),
  // The start is stored as its UTC instant; the creator tools write it as local time in its zone.
  toInput: (fields) => ({ startsAt: fields.localStart }),
  fromFrontmatter: (fm, body) => ({
    startsAt: utcInstant(fm.startsAt, fm.timeZone),
    localStart: fm.startsAt,
    timeZone: fm.timeZone,
    durationMinutes: fm.durationMinutes,
    host: fm.host,
    format: fm.format,
    joinUrl: fm.joinUrl,
    address: fm.address,
    capacity: fm.capacity,
    recordingUrl: fm.recordingUrl,
    cancelled: fm.cancelled,
    content: body,
    contentFormat: 'mdx' as const,
  }),
  fromInput: (input, now) => ({
    startsAt: utcInstant(input.startsAt, input.timeZone),
    localStart: input.startsAt,
    timeZone: input.timeZone,
    durationMinutes: input.durationMinutes,
    host: input.host,
    format: input.format,
    joinUrl: input.format === 'online' ? input.joinUrl : undefined,
    address: input.format === 'in-person' ? input.address : undefined,
    capacity: input.capacity,
    recordingUrl: input.recordingUrl,
    cancelled: input.cancelled,
    content: input.content,
    contentFormat: 'markdown' as const,
    revisedAt: now.toISOString(),
  }),
});
