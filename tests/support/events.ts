/** Builders for the events suites: an event in the database starting a given time from now, and signed-in members. */
import type { AccessLevel, Role } from '#shared/access.ts';
import type { EventItem } from '#shared/content/registry.ts';
import type { TestApp } from './app.ts';
import { makeEventInput, utcLocal } from './fixtures.ts';

let n = 0;

/**
 * Creates an event in the database, as the creator tools would: premium, online, 10 seats, starting
 * `startsIn` minutes from now (UTC), its join URL and recording marked SECRET (no mail or public answer may carry it).
 */
export async function createEvent(t: TestApp, startsIn: number, overrides: Record<string, unknown> = {}): Promise<EventItem> {
  n += 1;
  const input = makeEventInput({
    accessLevel: 'premium',
    startsAt: utcLocal(startsIn),
    timeZone: 'UTC',
    capacity: 10,
    joinUrl: `https://meet.example.com/join-SECRET-${n}`,
    recordingUrl: `https://video.example.com/recording-SECRET-${n}`,
    ...overrides,
  });
  return (await t.services.content.create('event', input)) as EventItem;
}

/** A confirmed account with a role and level, signed in: its id, address and bearer header. */
export async function signedInMember(t: TestApp, email: string, role: Role, accessLevel: AccessLevel) {
  const password = 'events suite password';
  const id = await t.services.auth.createConfirmedUser(email, password, `Member ${email.split('@')[0]}`);
  await t.services.users.assign(id, role, accessLevel);
  const session = await t.services.auth.signInWithPassword({ email, password });
  return { id, email, token: session.access_token, headers: { authorization: `Bearer ${session.access_token}` } };
}
