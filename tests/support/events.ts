/** Builders for the events suites: an event in the database starting a given time from now, and signed-in members. */
import type { AccessLevel, Role } from '#shared/access.ts';
import type { EventItem } from '#shared/content/registry.ts';
import type { TestApp } from './app.ts';

let n = 0;

/** The local date and time (YYYY-MM-DDTHH:mm) in UTC of a moment `minutes` from now, to the minute. */
export function utcLocal(minutes: number, from = Date.now()): string {
  return new Date(from + minutes * 60_000).toISOString().slice(0, 16);
}

/** A creator-tools input for an online event starting `startsIn` minutes from now (UTC), premium, 10 seats. */
export function makeEventInput(startsIn: number, overrides: Record<string, unknown> = {}) {
  n += 1;
  return {
    title: `Growth webinar ${Date.now().toString(36)}${n}`,
    description: 'A live session on what works in growth right now, with questions at the end.',
    tags: ['Webinar'],
    accessLevel: 'premium',
    startsAt: utcLocal(startsIn),
    timeZone: 'UTC',
    durationMinutes: 60,
    format: 'online',
    joinUrl: `https://meet.example.com/join-SECRET-${n}`,
    recordingUrl: `https://video.example.com/recording-SECRET-${n}`,
    capacity: 10,
    ...overrides,
  };
}

/** Creates the event in the database, as the creator tools would. */
export async function createEvent(t: TestApp, startsIn: number, overrides: Record<string, unknown> = {}): Promise<EventItem> {
  return (await t.services.content.create('event', makeEventInput(startsIn, overrides))) as EventItem;
}

/** A confirmed account with a role and level, signed in: its id, address and bearer header. */
export async function signedInMember(t: TestApp, email: string, role: Role, accessLevel: AccessLevel) {
  const password = 'events suite password';
  const id = await t.services.auth.createConfirmedUser(email, password, `Member ${email.split('@')[0]}`);
  await t.services.users.assign(id, role, accessLevel);
  const session = await t.services.auth.signInWithPassword({ email, password });
  return { id, email, token: session.access_token, headers: { authorization: `Bearer ${session.access_token}` } };
}
