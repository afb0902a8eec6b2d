/**
 * The members' business tools' shared rules (issue 35): the Users tab's filter (its query parameters,
 * checked by one schema on the server and typed for the browser, and kept in a segment), the labels'
 * limits, the CSV file's columns, and the API keys' scopes.
 */
import { z } from 'zod';
import { ACCESS_LEVELS } from './access.ts';

/** What a member's paid access can rest on (the grants ledger's sources). */
export const FILTER_SOURCES = ['subscription', 'purchase', 'comp', 'gift', 'trial', 'offer'] as const;
/** A member's billing state: paying and renewing, set to end, a failed payment, or no subscription granting access. */
export const FILTER_STATUSES = ['active', 'cancelling', 'past_due', 'none'] as const;
export type FilterStatus = (typeof FILTER_STATUSES)[number];

export const LABEL_MAX_CHARS = 60;
export const SEGMENT_NAME_MAX_CHARS = 80;

// Control characters (but none of tab, line feed or carriage return, which a value never holds either).
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]/;

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .min(1, `${label} is empty`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine((v) => !CONTROL.test(v), `${label} must be a single line of text`);

/** A label's name as staff type it: no comma or semicolon, which separate labels in the filter and the file. */
export const LabelName = text('A label', LABEL_MAX_CHARS).refine((v) => !/[,;]/.test(v), 'A label may not hold a comma or a semicolon');

/** A comma-separated list of one of `values` in a query parameter (or a list, as a segment keeps it). */
const listOf = <T extends readonly [string, ...string[]]>(label: string, values: T) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v),
    z
      .array(z.enum(values, { error: `Each ${label} must be one of ${values.join(', ')}` }))
      .max(values.length, `Name each ${label} once`)
      .refine((l) => new Set(l).size === l.length, `Name each ${label} once`),
  );

const day = (label: string) =>
  z
    .string({ error: `${label} must be a date` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date like 2026-01-31`)
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), {
      message: `${label} must be a real date`,
    })
    .refine((v) => v >= '1900' && v < '9999', { message: `${label} must be between 1900 and 9998` });

/** An empty or all-space query parameter is as good as none (an empty filter box); control characters stay refused. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && /^ *$/.test(v) ? undefined : v), schema.optional());

/**
 * The Users tab's filter: every field optional, all of them together narrowing the list. As query
 * parameters (`?level=premium,subscriber&label=VIP&joinedFrom=2026-01-01`) and as a segment keeps it.
 */
export const MemberFilterFields = z.object({
  q: optional(text('q', 200)),
  level: optional(listOf('level', ACCESS_LEVELS)),
  source: optional(listOf('source', FILTER_SOURCES)),
  status: optional(listOf('status', FILTER_STATUSES)),
  label: optional(
    z.preprocess(
      (v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v),
      z.array(LabelName).max(20, 'Filter by at most 20 labels'),
    ),
  ),
  newsletter: optional(z.enum(['on', 'off'], { error: 'newsletter must be on or off' })),
  signup: optional(text('signup', 200)),
  joinedFrom: optional(day('joinedFrom')),
  joinedTo: optional(day('joinedTo')),
  seenFrom: optional(day('seenFrom')),
  seenTo: optional(day('seenTo')),
});

/** The filter's date ranges in order; applied to the filter's fields and to any schema that extends them. */
export const withRangeChecks = <
  T extends z.ZodType<{
    joinedFrom?: string | undefined;
    joinedTo?: string | undefined;
    seenFrom?: string | undefined;
    seenTo?: string | undefined;
  }>,
>(
  schema: T,
) =>
  schema
    .refine((f) => !(f.joinedFrom && f.joinedTo && f.joinedFrom > f.joinedTo), {
      message: 'joinedFrom is after joinedTo',
      path: ['joinedFrom'],
    })
    .refine((f) => !(f.seenFrom && f.seenTo && f.seenFrom > f.seenTo), { message: 'seenFrom is after seenTo', path: ['seenFrom'] });

export const MemberFilterSchema = withRangeChecks(MemberFilterFields.strict());
export type MemberFilter = z.infer<typeof MemberFilterSchema>;

/** The filter as query parameters (the browser's list, export link and a segment's link). */
export function filterQuery(filter: MemberFilter): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    query[key] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return query;
}

/**
 * The members file's columns, in order (export writes them all; an import needs `email` and may
 * leave others out). Dates are ISO instants; lists are separated by `;`.
 */
export const CSV_COLUMNS = [
  'email',
  'name',
  'access_level',
  'comp_level',
  'comp_until',
  'paid_access',
  'labels',
  'newsletter',
  'list_status',
  'consent_at',
  'consent_source',
  'suppressed',
  'signup_referrer',
  'signup_utm_source',
  'signup_utm_medium',
  'signup_utm_campaign',
  'stripe_customer_id',
  'created_at',
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** The most members one import may bring (the server stops reading past it; the Users tab counts first). */
export const MAX_IMPORT_ROWS = 100_000;

/** What an API key may do; each admin route names the scope it needs (none: keys are refused). */
export const API_SCOPES = ['read:members', 'write:members', 'read:analytics'] as const;
export type ApiScope = (typeof API_SCOPES)[number];
