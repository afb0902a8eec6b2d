/**
 * The members file's cells both ways (issue 35). A cell a spreadsheet would run as a formula (it
 * starts with = + - @, a tab or a carriage return) is written with a leading apostrophe, and so is one
 * that starts with an apostrophe itself; reading takes exactly one leading apostrophe off. So every
 * value comes back as it went out, and no exported cell is a formula.
 */
import { stringify } from 'csv-stringify/sync';
import { CSV_COLUMNS, type CsvColumn } from '#shared/members.ts';

const RISKY = /^[=+\-@\t\r']/;

/** A value as a safe cell. */
export const defuse = (value: string) => (RISKY.test(value) ? `'${value}` : value);

/** A cell's value (one defusing apostrophe taken off). */
export const undefuse = (cell: string) => (cell.startsWith("'") ? cell.slice(1) : cell);

/** The file: the header row and one line per member, every cell defused, lines ending in CRLF (RFC 4180). */
export function membersCsv(rows: Record<CsvColumn, string>[]): string {
  return stringify(
    rows.map((r) => CSV_COLUMNS.map((c) => defuse(r[c]))),
    // A lone carriage return or line feed is quoted too (csv-stringify quotes only the whole delimiter).
    { header: true, columns: [...CSV_COLUMNS], record_delimiter: 'windows', quoted_match: /[\r\n]/ },
  );
}
