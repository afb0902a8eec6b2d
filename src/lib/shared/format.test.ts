import { execFile } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { formatDate, formatPrice, skillLabel } from './format.ts';

const run = promisify(execFile);
const MODULE_URL = pathToFileURL(path.resolve(import.meta.dirname, 'format.ts')).href;

/**
 * formatDate of each value, evaluated in a fresh Node process running in time zone `tz`, with that
 * process's UTC offset (minutes, as getTimezoneOffset) on 2026-03-04 to prove the zone took effect.
 */
async function formatDatesIn(tz: string, values: string[]): Promise<{ dates: string[]; offset: number }> {
  const script = [
    `const { formatDate } = await import(${JSON.stringify(MODULE_URL)});`,
    `const dates = ${JSON.stringify(values)}.map(formatDate);`,
    `const offset = new Date('2026-03-04T12:00:00Z').getTimezoneOffset();`,
    `process.stdout.write(JSON.stringify({ dates, offset }));`,
  ].join('\n');
  const { stdout } = await run(process.execPath, ['--no-warnings', '--input-type=module', '-e', script], {
    env: { ...process.env, TZ: tz },
  });
  return JSON.parse(stdout) as { dates: string[]; offset: number };
}

describe('formatDate', () => {
  it('writes a date-only string as "Month d, yyyy"', () => {
    expect(formatDate('2026-03-04')).toBe('March 4, 2026');
    expect(formatDate('2025-12-31')).toBe('December 31, 2025');
  });

  it('returns a value it cannot parse unchanged', () => {
    expect(formatDate('not a date')).toBe('not a date');
  });

  it.each([
    ['America/Los_Angeles', 480],
    ['Pacific/Kiritimati', -840],
    ['UTC', 0],
  ])(
    'keeps the calendar day in time zone %s',
    async (tz, offset) => {
      expect(await formatDatesIn(tz, ['2026-03-04', '2026-01-01'])).toEqual({
        dates: ['March 4, 2026', 'January 1, 2026'],
        offset,
      });
    },
    20_000,
  );
});

describe('formatPrice', () => {
  it.each<[number | undefined, string]>([
    [undefined, 'Free'],
    [0, 'Free'],
    [9.99, '$9.99'],
    [49, '$49.00'],
    [0.5, '$0.50'],
  ])('formats %j as %j', (price, text) => {
    expect(formatPrice(price)).toBe(text);
  });
});

describe('skillLabel', () => {
  it('capitalises known levels and passes unknown ones through', () => {
    expect(skillLabel('intermediate')).toBe('Intermediate');
    expect(skillLabel('expert')).toBe('expert');
  });
});
