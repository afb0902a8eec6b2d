/**
 * The sample events in content/events/ keep their dates: the suites (the events journey, the list
 * order, the leak crawler) need the upcoming samples to stay upcoming, and the past one (kept with its
 * recording) to stay past. This fails 60 days before the first upcoming sample would pass, with a
 * message saying what to do, rather than letting those suites break on the day.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventItem } from '#shared/content/registry.ts';
import { parseContentFile } from '../content/mdx-source.ts';

const FOLDER = path.resolve(import.meta.dirname, '../../content/events');
const WARNING_DAYS = 60;
const DAY = 86_400_000;

async function samples(): Promise<EventItem[]> {
  const files = (await readdir(FOLDER)).filter((f) => f.endsWith('.mdx'));
  return Promise.all(files.map(async (f) => parseContentFile('event', f, await readFile(path.join(FOLDER, f), 'utf8')) as EventItem));
}

describe('the sample events', () => {
  it(`start more than ${WARNING_DAYS} days from now, except the past example with its recording`, async () => {
    const events = await samples();
    const upcoming = events.filter((e) => !e.recordingUrl);
    expect(upcoming.length, 'upcoming samples').toBeGreaterThanOrEqual(2);
    expect(
      events.some((e) => e.recordingUrl && Date.parse(e.startsAt) < Date.now()),
      'a past sample with a recording',
    ).toBe(true);
    const deadline = Date.now() + WARNING_DAYS * DAY;
    for (const event of upcoming) {
      expect(
        Date.parse(event.startsAt),
        `content/events/${event.slug}.mdx starts ${event.localStart} (${event.timeZone}), within ${WARNING_DAYS} days: ` +
          'move the sample dates in content/events/ on (a year, say), so the suites that need upcoming events keep them.',
      ).toBeGreaterThan(deadline);
    }
  });
});
