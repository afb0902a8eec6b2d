/**
 * One CSV cell for the files staff download (an event's registrants, the revenue report): numbers as
 * they are, empty for null; text a spreadsheet would take for a formula (starting with = + - @, a tab
 * or a carriage return) defused with a leading apostrophe, then quoted when it holds a comma, quote
 * or line break. The members file keeps its own rule (members/csv/cells.ts): it must read back exactly.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
