/**
 * Staff's changes to an event and its registrants, on PGlite and Postgres, through the creator API
 * and the content service: registrations follow the event through a new slug (a new event under the
 * old slug starts with none, so nobody inherits its join link); deleting or unpublishing an event
 * members hold seats for is refused until staff cancel it, and the cancellation mails them once;
 * moving an event mails each registrant once with a calendar file that replaces their entry, and
 * the reminders follow the new start; and a batch of reminders stops at the claim that finds the
 * event cancelled.
 */
import { and, eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventItem } from '#shared/content/registry.ts';
import { emails } from '../../functions/email/tables.ts';
import type { ErrorAnswer } from '../support/answers.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { DATABASE_KINDS } from '../support/databases.ts';
import { createEvent, signedInMember } from '../support/events.ts';

const HOUR = 3_600_000;

type Member = Awaited<ReturnType<typeof signedInMember>>;

/** The VEVENT of a calendar file, read with ical.js. */
const vevent = (ics: string) => new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!;

describe.each(DATABASE_KINDS)('changes to an event on %s', (kind) => {
  let t: TestApp;
  let admin: Member;
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4' });
    admin = await signedInMember(t, `admin-${kind}@event-changes.test`, 'admin', 'premium');
  });
  afterAll(() => t?.close());

  const premium = (label: string) => signedInMember(t, `${label}-${(n += 1)}-${kind}@event-changes.test`, 'member', 'premium');
  const events = (who: Member, path: string, method = 'GET') => t.app.request(`/api/events/${path}`, { method, headers: who.headers });
  const register = async (who: Member, slug: string) => expect((await events(who, `${slug}/registration`, 'POST')).status).toBe(200);
  const stateOf = async (who: Member, slug: string) => (await events(who, `${slug}/registration`)).json();
  /** The creator API, as the admin dashboard calls it. */
  const write = (id: string, method: 'PATCH' | 'DELETE', body?: unknown) =>
    t.app.request(`/api/content/events/${id}`, {
      method,
      headers: { ...admin.headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const mailsTo = (to: string, template: string) =>
    t.database.db
      .select()
      .from(emails)
      .where(and(eq(emails.to, to), eq(emails.template, template)));

  it('keeps registrations with the event through a new slug; a new event under the old slug starts with none', async () => {
    const event = await createEvent(t, 10);
    const member = await premium('renamed');
    await register(member, event.slug);
    const renamed = (await t.services.content.update('event', event.id, { slug: `${event.slug}-renamed` })) as EventItem;
    expect(await stateOf(member, renamed.slug)).toEqual({ registered: true, seatsLeft: 9, hasRecording: true });
    expect(await (await events(member, `${renamed.slug}/join`)).json()).toEqual({ url: event.joinUrl });
    expect((await events(member, `${event.slug}/registration`)).status).toBe(404);

    const newcomer = await createEvent(t, 10, { slug: event.slug });
    expect(await stateOf(member, newcomer.slug)).toEqual({ registered: false, seatsLeft: 10, hasRecording: true });
    expect((await events(member, `${newcomer.slug}/join`)).status).toBe(403);
    const mine = (await (await t.app.request('/api/events', { headers: member.headers })).json()) as {
      events: { slug: string }[];
    };
    expect(mine.events.map((e) => e.slug)).toEqual([renamed.slug]);
  });

  it('refuses to delete or unpublish an event members hold seats for until staff cancel it, which mails them once', async () => {
    const event = await createEvent(t, 3 * 24 * 60);
    const [member, gone] = [await premium('seated'), await premium('gave-back')];
    for (const who of [member, gone]) await register(who, event.slug);
    expect((await events(gone, `${event.slug}/registration`, 'DELETE')).status).toBe(200);

    for (const [method, body] of [['DELETE'], ['PATCH', { published: false }]] as const) {
      const res = await write(event.id, method, body);
      expect(res.status, method).toBe(409);
      expect(((await res.json()) as ErrorAnswer).error.message).toBe(
        'This event has 1 registrant. Cancel the event first (that emails them), then delete or unpublish it.',
      );
    }
    expect((await t.app.request(`/api/public/events/${event.slug}`)).status).toBe(200);
    expect(await stateOf(member, event.slug)).toMatchObject({ registered: true });

    // Cancelled, it may go: the registrant's notice is queued with the deletion, once, whatever ticks after.
    expect((await write(event.id, 'PATCH', { cancelled: true })).status).toBe(200);
    expect((await write(event.id, 'DELETE')).status).toBe(204);
    await t.services.eventNotices.tick();
    expect((await mailsTo(member.email, 'event-cancelled')).map((m) => m.subject)).toEqual([`Cancelled: ${event.title}`]);
    expect(await mailsTo(gone.email, 'event-cancelled')).toEqual([]);

    // A new event under the old slug inherits nobody; one nobody registered for unpublishes at once.
    const again = await createEvent(t, 10, { slug: event.slug });
    expect((await events(member, `${again.slug}/join`)).status).toBe(403);
    expect((await write(again.id, 'PATCH', { published: false })).status).toBe(200);
  });

  it('mails each registrant once when the start moves, with a calendar file that replaces their entry, and moves the reminders', async () => {
    const event = await createEvent(t, 30 * 60);
    const start = Date.parse(event.startsAt);
    const [kept, left] = [await premium('moved-kept'), await premium('moved-left')];
    for (const who of [kept, left]) await register(who, event.slug);
    expect((await events(left, `${event.slug}/registration`, 'DELETE')).status).toBe(200);
    await t.services.eventNotices.tick(new Date(start - 23 * HOUR));
    expect(await mailsTo(kept.email, 'event-reminder')).toHaveLength(1);

    // SEQUENCE counts the seconds of the event's revisions: this one comes a second after the first.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const newStart = start + 48 * HOUR;
    const res = await write(event.id, 'PATCH', { startsAt: new Date(newStart).toISOString().slice(0, 16) });
    expect(res.status, await res.clone().text()).toBe(200);
    const notices = await mailsTo(kept.email, 'event-moved');
    expect(notices.map((m) => m.subject)).toEqual([`New time: ${event.title}`]);
    expect(notices[0]!.bodyText).not.toContain('SECRET');
    expect(await mailsTo(left.email, 'event-moved')).toEqual([]);

    // The attached calendar file replaces the confirmation's entry: the same UID, the new start, a higher SEQUENCE.
    const [confirmation] = await mailsTo(kept.email, 'event-registered');
    const [before, after] = [confirmation!, notices[0]!].map((mail) => vevent(mail.attachments[0]!.content));
    expect(after!.getFirstPropertyValue('uid')).toBe(before!.getFirstPropertyValue('uid'));
    expect((after!.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().getTime()).toBe(newStart);
    expect(Number(after!.getFirstPropertyValue('sequence'))).toBeGreaterThan(Number(before!.getFirstPropertyValue('sequence')));

    // A change that keeps the start mails nobody.
    expect((await write(event.id, 'PATCH', { title: `${event.title} (room changed)` })).status).toBe(200);
    expect(await mailsTo(kept.email, 'event-moved')).toHaveLength(1);
    // The 24-hour reminder goes again 24 hours before the new start, and only then.
    await t.services.eventNotices.tick(new Date(start - 22 * HOUR));
    expect(await mailsTo(kept.email, 'event-reminder')).toHaveLength(1);
    await t.services.eventNotices.tick(new Date(newStart - 23 * HOUR));
    expect(await mailsTo(kept.email, 'event-reminder')).toHaveLength(2);
  });

  it('stops a batch of reminders at the claim that finds the event cancelled', async () => {
    const event = await createEvent(t, 30 * 60);
    const members = [await premium('batch'), await premium('batch'), await premium('batch')];
    for (const who of members) await register(who, event.slug);
    const { content } = t.services;
    const read = content.getById;
    let reads = 0;
    // Staff cancel it while the batch runs: every claim's read after the first finds it cancelled.
    content.getById = (async (type, id, tx) => {
      const item = await read(type, id, tx);
      if (id !== event.id || !item) return item;
      reads += 1;
      return reads > 1 ? { ...item, cancelled: true } : item;
    }) as typeof read;
    try {
      await t.services.eventNotices.tick(new Date(Date.parse(event.startsAt) - 23 * HOUR));
    } finally {
      content.getById = read;
    }
    const reminded = await Promise.all(members.map(async (m) => (await mailsTo(m.email, 'event-reminder')).length));
    expect(reminded.sort()).toEqual([0, 0, 1]);
    expect(reads).toBe(2);
  });
});
