/**
 * Reading a members file (issue 35) without writing anything: the bytes must be UTF-8 (a byte-order
 * mark is dropped), the header must name known columns with `email` among them, and each line is
 * checked on its own, so a dry run reports every line's problem at once. A broken file (a quote never
 * closed, a line over 64 KB, a line with the wrong number of cells) is refused as a whole, with where.
 */
import { Readable } from 'node:stream';
import { parse as parseStream } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { CSV_COLUMNS, LabelName, MAX_IMPORT_ROWS, type CsvColumn } from '#shared/members.ts';
import { AppError } from '../../platform/errors.ts';
import { undefuse } from './cells.ts';

/** The longest line a file may hold (a member is a few hundred bytes). */
export const MAX_LINE_BYTES = 65_536;
/** The most members one file may bring. */
export const MAX_ROWS = MAX_IMPORT_ROWS;

const LIST_STATUSES = ['confirmed', 'pending', 'unsubscribed'] as const;
const SUPPRESSIONS = ['bounce', 'complaint', 'unsubscribe'] as const;

/** A real calendar day (no 30 February) in the years a database and a person mean (1900-9998). */
const realDay = (v: string) => {
  const [y, m, d] = v.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return y >= 1900 && y <= 9998 && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
};
const instant = (label: string) =>
  z
    .string()
    .refine(
      (v) =>
        /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(v) && !Number.isNaN(Date.parse(v)) && realDay(v),
      {
        message: `${label} must be a date like 2026-01-31 or 2026-01-31T09:30:00.000Z`,
      },
    );
const optionalText = (label: string, max: number) => z.string().max(max, `${label} must be at most ${max} characters`);

/** One line's cells (all strings; an empty cell means "not given"). */
const Line = z.object({
  email: z.email('email must be an email address').max(254, 'email must be at most 254 characters'),
  name: optionalText('name', 100),
  comp_level: z.enum(['', 'subscriber', 'premium'], { error: 'comp_level must be subscriber or premium' }),
  comp_until: z.union([z.literal(''), instant('comp_until')]),
  labels: z.string().max(2000, 'labels must be at most 2000 characters'),
  newsletter: z.enum(['', 'yes', 'no'], { error: 'newsletter must be yes or no' }),
  list_status: z.enum(['', ...LIST_STATUSES], { error: `list_status must be one of ${LIST_STATUSES.join(', ')}` }),
  consent_at: z.union([z.literal(''), instant('consent_at')]),
  consent_source: optionalText('consent_source', 200),
  suppressed: z.enum(['', ...SUPPRESSIONS], { error: `suppressed must be one of ${SUPPRESSIONS.join(', ')}` }),
  signup_referrer: optionalText('signup_referrer', 500),
  signup_utm_source: optionalText('signup_utm_source', 200),
  signup_utm_medium: optionalText('signup_utm_medium', 200),
  signup_utm_campaign: optionalText('signup_utm_campaign', 200),
  stripe_customer_id: z.union([z.literal(''), z.string().regex(/^cus_[A-Za-z0-9]{1,250}$/, 'stripe_customer_id must look like cus_…')]),
  created_at: z.union([z.literal(''), instant('created_at')]),
});

/** A line the import can write. */
export interface ImportLine {
  row: number;
  email: string;
  name: string | null;
  comp: { level: 'subscriber' | 'premium'; until: Date } | null;
  labels: string[];
  newsletter: boolean | null;
  list: { status: (typeof LIST_STATUSES)[number]; consentAt: Date | null; source: string | null } | null;
  suppressed: string | null;
  signup: { referrer: string | null; utmSource: string | null; utmMedium: string | null; utmCampaign: string | null };
  customerId: string | null;
  createdAt: Date | null;
}

export interface RowError {
  row: number;
  message: string;
}

const orNull = (v: string) => (v === '' ? null : v);
/** Every cell is one line: a line break inside one would start a row of its own in a spreadsheet. */
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]/;

/** The file's text: UTF-8, without a byte-order mark. */
export function decode(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new AppError('bad_request', 'The file must be UTF-8 text (save it as "CSV UTF-8").');
  }
}

/** The header's columns, checked. */
function header(cells: string[]): CsvColumn[] {
  const names = cells.map((c) => c.trim().toLowerCase());
  const unknown = names.filter((n) => !(CSV_COLUMNS as readonly string[]).includes(n));
  if (unknown.length)
    throw new AppError(
      'bad_request',
      `Unknown column${unknown.length > 1 ? 's' : ''}: ${unknown.slice(0, 5).join(', ')}. The columns are ${CSV_COLUMNS.join(', ')}.`,
    );
  if (new Set(names).size !== names.length) throw new AppError('bad_request', 'A column is named twice in the header.');
  if (!names.includes('email')) throw new AppError('bad_request', 'The header needs an email column.');
  return names as CsvColumn[];
}

const PARSE_OPTIONS = {
  bom: true,
  skip_empty_lines: true,
  max_record_size: MAX_LINE_BYTES,
  relax_column_count: false,
} as const;

/** A member more than a file may bring: the reading stops there (a file of millions of tiny lines costs no more). */
const tooMany = () => new AppError('bad_request', `A file may bring at most ${MAX_ROWS} members; split it.`);

/** The text in slices, so the second reading parses only as fast as the batches are written. */
function* slices(text: string, size = 64 * 1024) {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

function unreadable(err: unknown): AppError {
  const { message, lines } = err as { message?: string; lines?: number };
  const where = typeof lines === 'number' ? ` (line ${lines})` : '';
  const why = /max_record_size|Max Record Size/i.test(message ?? '')
    ? `a line is longer than ${MAX_LINE_BYTES} bytes`
    : 'it is not valid CSV';
  return new AppError('bad_request', `The file could not be read: ${why}${where}.`);
}

/** One line checked: what to write, or its problem. */
function checkLine(
  columns: CsvColumn[],
  cells: string[],
  row: number,
  seen: Set<string>,
): (ImportLine & { compLevelOnly?: boolean }) | RowError {
  const raw = Object.fromEntries(CSV_COLUMNS.map((c) => [c, ''])) as Record<CsvColumn, string>;
  columns.forEach((c, i) => (raw[c] = undefuse(cells[i]!.trim())));
  if (Object.values(raw).some((v) => CONTROL.test(v))) return { row, message: 'A cell holds a line break or control characters.' };
  const parsed = Line.safeParse(raw);
  if (!parsed.success) return { row, message: parsed.error.issues[0]?.message ?? 'This line is not valid.' };
  const l = parsed.data;
  const email = l.email.toLowerCase();
  if (seen.has(email)) return { row, message: `${email} is on an earlier line already.` };
  seen.add(email);
  const labels = l.labels
    ? l.labels
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
  for (const label of labels) {
    const ok = LabelName.safeParse(label);
    if (!ok.success) return { row, message: `labels: ${ok.error.issues[0]?.message ?? 'a label is not valid'}` };
  }
  const until = l.comp_until ? new Date(l.comp_until) : null;
  return {
    row,
    email,
    name: orNull(l.name),
    comp: l.comp_level && until ? { level: l.comp_level, until } : null,
    ...(l.comp_level && !until ? { compLevelOnly: true } : {}),
    labels,
    newsletter: l.newsletter === '' ? null : l.newsletter === 'yes',
    list: l.list_status
      ? { status: l.list_status, consentAt: l.consent_at ? new Date(l.consent_at) : null, source: orNull(l.consent_source) }
      : null,
    suppressed: orNull(l.suppressed),
    signup: {
      referrer: orNull(l.signup_referrer),
      utmSource: orNull(l.signup_utm_source),
      utmMedium: orNull(l.signup_utm_medium),
      utmCampaign: orNull(l.signup_utm_campaign),
    },
    customerId: orNull(l.stripe_customer_id),
    createdAt: l.created_at ? new Date(l.created_at) : null,
  };
}

/** Why a line's level cannot come as a comp, if it cannot. */
function compProblem(line: ImportLine & { compLevelOnly?: boolean }, now: Date): string | undefined {
  if (line.compLevelOnly) return 'comp_level needs comp_until (an import gives levels only as comps with an end date).';
  if (line.comp && line.comp.until <= now) return 'comp_until is in the past.';
  return undefined;
}

/** A file read once and checked: its text, its columns, how many members it holds, every problem, and the rows to leave out. */
export interface CheckedFile {
  text: string;
  columns: CsvColumn[];
  rows: number;
  errors: RowError[];
  skip: Set<number>;
}

/** A line's verdict after the checks that span lines (a repeated address or customer, dates, the comp rules). */
function verdict(
  checked: ReturnType<typeof checkLine>,
  now: Date,
  customers: Set<string>,
): { line?: ImportLine; error?: RowError; skip: boolean } {
  if ('message' in checked) return { error: checked, skip: true };
  if (checked.createdAt && checked.createdAt > now)
    return { error: { row: checked.row, message: 'created_at is in the future.' }, skip: true };
  if (checked.customerId && customers.has(checked.customerId))
    return { error: { row: checked.row, message: `stripe_customer_id ${checked.customerId} is on an earlier line already.` }, skip: true };
  if (checked.customerId) customers.add(checked.customerId);
  const problem = compProblem(checked, now);
  // The member comes in; the level does not (an import gives levels only as comps that end).
  if (problem)
    return {
      line: { ...checked, comp: null },
      error: { row: checked.row, message: `Imported without its level: ${problem}` },
      skip: false,
    };
  return { line: checked, skip: false };
}

/**
 * The first reading: every line checked, nothing kept but the problems (each record is dropped as it
 * is read), so a dry run and the import's refusal of a broken file cost the file's size, not its lines'.
 */
export function checkMembersFile(bytes: Uint8Array, now: Date): CheckedFile {
  const text = decode(bytes);
  let columns: CsvColumn[] | undefined;
  let rows = 0;
  const errors: RowError[] = [];
  const skip = new Set<number>();
  const seen = new Set<string>();
  const customers = new Set<string>();
  try {
    parse(text, {
      ...PARSE_OPTIONS,
      on_record: (cells: string[]) => {
        if (!columns) columns = header(cells);
        else {
          rows += 1;
          if (rows > MAX_ROWS) throw tooMany();
          const { error, skip: left } = verdict(checkLine(columns, cells, rows + 1, seen), now, customers);
          if (error) errors.push(error);
          if (left) skip.add(rows + 1);
        }
        return null;
      },
    });
  } catch (err) {
    throw err instanceof AppError ? err : unreadable(err);
  }
  if (!columns) throw new AppError('bad_request', 'The file is empty: it needs a header line and a line per member.');
  return { text, columns, rows, errors, skip };
}

/** The second reading, for the import: the lines to write, `size` at a time, read as they are written. */
export async function* lineBatches(file: CheckedFile, now: Date, size: number): AsyncGenerator<ImportLine[]> {
  // Piped in slices: the parser then waits for each batch to be written instead of parsing the whole text at once.
  const parser = Readable.from(slices(file.text)).pipe(parseStream(PARSE_OPTIONS));
  const seen = new Set<string>();
  const customers = new Set<string>();
  let row = 0;
  let batch: ImportLine[] = [];
  for await (const cells of parser as AsyncIterable<string[]>) {
    row += 1;
    if (row === 1 || file.skip.has(row)) continue;
    const { line } = verdict(checkLine(file.columns, cells, row, seen), now, customers);
    if (!line) continue;
    batch.push(line);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}
