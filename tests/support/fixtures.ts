/** Typed builders for test inputs and a quiet logger. */
import { pino } from 'pino';
import type { Logger } from '../../functions/platform/logger.ts';

export const quietLogger = (): Logger => pino({ level: 'silent' });

let n = 0;
const unique = () => `${Date.now().toString(36)}${(n++).toString(36)}`;

/**
 * A wall-clock time (YYYY-MM-DDTHH:mm, read in UTC) `minutes` from now: the one way test dates are
 * built, so no test expires with the calendar.
 */
export function utcLocal(minutes: number, from = Date.now()): string {
  return new Date(from + minutes * 60_000).toISOString().slice(0, 16);
}

/** Minutes in a day, for `utcLocal(30 * DAY_MINUTES)`. */
export const DAY_MINUTES = 24 * 60;

export function makeBlogInput(overrides: Record<string, unknown> = {}) {
  return {
    title: `Database article ${unique()}`,
    description: 'An article written in the creator tools and stored in the database.',
    tags: ['Testing', 'Database'],
    accessLevel: 'free',
    content: 'The body of a database article.',
    ...overrides,
  };
}

export function makeCourseInput(overrides: Record<string, unknown> = {}) {
  return {
    title: `Database course ${unique()}`,
    description: 'A course written in the creator tools and stored in the database.',
    tags: ['Testing'],
    accessLevel: 'subscriber',
    duration: '2 weeks',
    skillLevel: 'intermediate',
    sections: [
      {
        id: 'start',
        title: 'Getting started',
        lessons: [{ id: 'first', title: 'First lesson', content: 'Lesson body', media: [], downloadables: [] }],
      },
    ],
    ...overrides,
  };
}

export function makeToolInput(overrides: Record<string, unknown> = {}) {
  return {
    title: `Database tool ${unique()}`,
    description: 'A tool written in the creator tools and stored in the database.',
    tags: ['Testing'],
    downloadUrl: 'downloads/test-file.pdf',
    ...overrides,
  };
}

export function makeMarketInput(overrides: Record<string, unknown> = {}) {
  return {
    title: `Database market item ${unique()}`,
    description: 'A market item written in the creator tools and stored in the database.',
    tags: ['Testing'],
    price: 19,
    fileType: 'PDF',
    downloadUrl: 'downloads/test-file.pdf',
    ...overrides,
  };
}

/** An online event 90 days from now (London time), as the creator tools take it. */
export function makeEventInput(overrides: Record<string, unknown> = {}) {
  return {
    title: `Database event ${unique()}`,
    description: 'An event written in the creator tools and stored in the database.',
    tags: ['Testing', 'Webinar'],
    accessLevel: 'subscriber',
    startsAt: utcLocal(90 * DAY_MINUTES),
    timeZone: 'Europe/London',
    durationMinutes: 60,
    format: 'online',
    joinUrl: 'https://meet.events.example/database-event',
    content: 'What the event is about.',
    ...overrides,
  };
}

export const INPUT_BUILDERS = {
  blog: makeBlogInput,
  course: makeCourseInput,
  tool: makeToolInput,
  market: makeMarketInput,
  event: makeEventInput,
} as const;
