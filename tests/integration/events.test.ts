/**
 * Events end to end through the API and the outbox, on PGlite and Postgres: seats hold under 50
 * concurrent registrations for 10; the confirmation reaches the embedded mailbox with a calendar
 * file a maintained parser reads; the 24-hour and 1-hour reminders and the cancellation notice go
 * out once per registration with two services ticking at the same moment, never to a cancelled
 * registration, a member whose level dropped or one who registered after the reminder's moment;
 * and registrations are in the member's export and gone with the account. Staff's changes to an
 * event (a new slug, removal, a move) are event-changes.test.ts's.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emails } from '../../functions/email/tables.ts';
import { REGISTRATION_LIMITS } from '../../functions/events/service.ts';
import { eventRegistrations } from '../../functions/events/tables.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { DATABASE_KINDS } from '../support/databases.ts';
import { createEvent, signedInMember } from '../support/events.ts';
import { tempDir } from '../support/temp.ts';

const HOUR = 3_600_000;

describe.each(DATABASE_KINDS)('events on %s', (kind) => {
  let t: TestApp;
  let other: TestApp;
  let mailbox: string;
  let n = 0;

  beforeAll(async () => {
    const dataDir = await tempDir(`events-${kind}`);
    mailbox = path.join(dataDir, 'mailbox');
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', DATA_DIR: dataDir });
    // A second instance on the same database: its tick races the first one's.
    other = await createTestApp(kind, t.database, { AUTH_BCRYPT_COST: '4', DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  const premium = async (label: string) => signedInMember(t, `${label}-${(n += 1)}-${kind}@events.test`, 'member', 'premium');
  const post = (who: { headers: Record<string, string> }, slug: string, method = 'POST') =>
    t.app.request(`/api/events/${slug}/registration`, { method, headers: who.headers });
  /** The mails of one template queued to `to`. */
  const mailsTo = (to: string, template: string) =>
    t.database.db
      .select()
      .from(emails)
      .where(and(eq(emails.to, to), eq(emails.template, template)));

  it('holds 10 seats under 50 concurrent registrations: 10 registered, 40 refused as full', async () => {
    const event = await createEvent(t, 48 * 60);
    const members: Awaited<ReturnType<typeof premium>>[] = [];
    for (let i = 0; i < 50; i += 1) members.push(await premium('crowd'));
    const answers = await Promise.all(members.map((m) => post(m, event.slug)));
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(40);
    const rows = await t.database.db.select().from(eventRegistrations).where(eq(eventRegistrations.eventId, event.id));
    expect(rows.filter((r) => r.status === 'registered')).toHaveLength(10);
    const confirmations = await t.database.db.select().from(emails).where(eq(emails.template, 'event-registered'));
    expect(confirmations.filter((m) => members.some((member) => member.email === m.to))).toHaveLength(10);
    // A seat given back is taken again by the next member, no more.
    const seated = members[statuses.indexOf(200)]!;
    expect((await post(seated, event.slug, 'DELETE')).status).toBe(200);
    const waiting = members.filter((_, i) => statuses[i] === 409);
    const second = await Promise.all(waiting.slice(0, 5).map((m) => post(m, event.slug)));
    expect(second.filter((res) => res.status === 200)).toHaveLength(1);
  });

  it('mails the confirmation with the calendar file to the embedded mailbox', async () => {
    const event = await createEvent(t, 72 * 60);
    const member = await premium('mailbox');
    expect((await post(member, event.slug)).status).toBe(200);
    // Registering again changes nothing and mails nothing more.
    expect(await (await post(member, event.slug)).json()).toMatchObject({ registered: true, seatsLeft: 9 });
    expect(await mailsTo(member.email, 'event-registered')).toHaveLength(1);
    while ((await t.services.mail.worker.runOnce()) > 0);
    const files = await readdir(mailbox);
    const texts = await Promise.all(files.filter((f) => f.endsWith('.eml')).map((f) => readFile(path.join(mailbox, f), 'utf8')));
    const eml = texts.find((text) => text.includes(`filename=${event.slug}.ics`) && text.includes(member.email))!;
    expect(eml).toMatch(/Content-Type: text\/calendar; charset=utf-8/);
    expect(eml).not.toContain('SECRET');
    const part = eml
      .split(`filename=${event.slug}.ics`)[1]!
      .trim()
      .split(/\r?\n\r?\n|\r?\n--/)[0]!;
    const ics = Buffer.from(part.replace(/\s+/g, ''), 'base64').toString('utf8');
    const vevent = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!;
    expect((vevent.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString()).toBe(event.startsAt);
    expect(vevent.getFirstPropertyValue('url')).toBe(`${t.config.siteUrl}/events/${event.slug}`);
    expect(ics).not.toContain('SECRET');
  });

  it('bounds the confirmations of a register-and-cancel loop, counting only registrations that take a seat', async () => {
    const event = await createEvent(t, 72 * 60);
    const member = await premium('churn');
    // Registering again while registered takes no seat, mails nothing and uses none of the limit.
    for (let i = 0; i < 8; i += 1) expect((await post(member, event.slug)).status).toBe(200);
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 40; i += 1) {
      if (i > 0) expect((await post(member, event.slug, 'DELETE')).status).toBe(200);
      const res = await post(member, event.slug);
      statuses.push(res.status);
      if (res.status === 429) refused ??= res;
    }
    // The first registration and four changes of mind go through; every later one is refused.
    const allowed = REGISTRATION_LIMITS.event.max;
    expect(statuses.slice(0, allowed)).toEqual(Array.from({ length: allowed }, () => 200));
    expect(statuses.slice(allowed).every((s) => s === 429)).toBe(true);
    expect(await mailsTo(member.email, 'event-registered')).toHaveLength(allowed);
    expect(refused!.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(await refused!.json()).toMatchObject({ error: { code: 'rate_limited', message: expect.stringMatching(/^Too many requests/) } });
    // Another event is the member's own count.
    const next = await createEvent(t, 72 * 60);
    expect((await post(member, next.slug)).status).toBe(200);
  });

  it('counts no registration an event refused as full', async () => {
    const event = await createEvent(t, 72 * 60, { capacity: 1 });
    const [holder, hopeful] = [await premium('holder'), await premium('hopeful')];
    expect((await post(holder, event.slug)).status).toBe(200);
    for (let i = 0; i < REGISTRATION_LIMITS.event.max + 2; i += 1) expect((await post(hopeful, event.slug)).status).toBe(409);
    expect((await post(holder, event.slug, 'DELETE')).status).toBe(200);
    expect((await post(hopeful, event.slug)).status).toBe(200);
    expect(await mailsTo(hopeful.email, 'event-registered')).toHaveLength(1);
  });

  it('sends each reminder once per registration, with two instances ticking at the same moment', async () => {
    const event = await createEvent(t, 30 * 60);
    const start = Date.parse(event.startsAt);
    const [kept, cancelled, dropped] = [await premium('kept'), await premium('cancelled'), await premium('dropped')];
    for (const member of [kept, cancelled, dropped]) expect((await post(member, event.slug)).status).toBe(200);
    expect((await post(cancelled, event.slug, 'DELETE')).status).toBe(200);
    // The level drops before the reminder: no reminder, at that tick or later ones.
    await t.services.users.assign(dropped.id, 'member', 'free');

    const race = (at: number) => Promise.all([t.services.eventNotices.tick(new Date(at)), other.services.eventNotices.tick(new Date(at))]);
    expect(await race(start - 30 * HOUR)).toEqual([0, 0]); // nothing due yet
    await race(start - 23 * HOUR);
    await race(start - 22 * HOUR);
    await race(start - 50 * 60_000);
    await race(start - 10 * 60_000);
    const reminders = await mailsTo(kept.email, 'event-reminder');
    expect(reminders.map((m) => m.subject).sort()).toEqual([
      `Reminder: ${event.title} starts in 23 hours`,
      `Reminder: ${event.title} starts in 50 minutes`,
    ]);
    // The start, in the event's own zone (UTC here).
    expect(reminders[0]!.bodyText).toMatch(/UTC \(UTC\)/);
    expect(reminders[0]!.bodyText).not.toContain('SECRET');
    expect(await mailsTo(cancelled.email, 'event-reminder')).toHaveLength(0);
    expect(await mailsTo(dropped.email, 'event-reminder')).toHaveLength(0);
  });

  it('skips a reminder whose moment came before the member registered, or passed long ago', async () => {
    // Starts in 10 hours: the 24-hour reminder's moment is already past when the member registers.
    const event = await createEvent(t, 10 * 60);
    const start = Date.parse(event.startsAt);
    const late = await premium('late');
    expect((await post(late, event.slug)).status).toBe(200);
    await t.services.eventNotices.tick(new Date(start - 9 * HOUR));
    expect(await mailsTo(late.email, 'event-reminder')).toHaveLength(0);
    // The 1-hour reminder's window ends at the start: a server back after the start sends none.
    await t.services.eventNotices.tick(new Date(start + 5 * 60_000));
    expect(await mailsTo(late.email, 'event-reminder')).toHaveLength(0);
    await t.services.eventNotices.tick(new Date(start - 30 * 60_000));
    expect(await mailsTo(late.email, 'event-reminder')).toHaveLength(1);
  });

  it('mails the cancellation notice once to each registrant when staff cancel the event', async () => {
    const event = await createEvent(t, 5 * 24 * 60);
    const [a, b, gone] = [await premium('notice-a'), await premium('notice-b'), await premium('notice-gone')];
    for (const member of [a, b, gone]) expect((await post(member, event.slug)).status).toBe(200);
    expect((await post(gone, event.slug, 'DELETE')).status).toBe(200);
    await t.services.content.update('event', event.id, { cancelled: true });
    const now = Date.now();
    await Promise.all([t.services.eventNotices.tick(new Date(now)), other.services.eventNotices.tick(new Date(now))]);
    await t.services.eventNotices.tick(new Date(now + HOUR));
    for (const member of [a, b]) {
      const notices = await mailsTo(member.email, 'event-cancelled');
      expect(notices.map((m) => m.subject)).toEqual([`Cancelled: ${event.title}`]);
    }
    expect(await mailsTo(gone.email, 'event-cancelled')).toHaveLength(0);
    // No reminder for a cancelled event when its moment comes.
    await t.services.eventNotices.tick(new Date(Date.parse(event.startsAt) - 2 * HOUR));
    expect(await mailsTo(a.email, 'event-reminder')).toHaveLength(0);
  });

  it("lists registrations in the member's upcoming events and export, and erases them with the account", async () => {
    const event = await createEvent(t, 6 * 60);
    const member = await premium('data');
    expect((await post(member, event.slug)).status).toBe(200);
    const mine = (await (await t.app.request('/api/events', { headers: member.headers })).json()) as {
      events: { slug: string; joinOpensAt: string; entitled: boolean }[];
    };
    expect(mine.events).toEqual([
      expect.objectContaining({
        slug: event.slug,
        entitled: true,
        joinOpensAt: new Date(Date.parse(event.startsAt) - 15 * 60_000).toISOString(),
      }),
    ]);
    const exported = (await (await t.app.request('/api/users/me/export', { headers: member.headers })).json()) as {
      eventRegistrations: { eventId: string }[];
    };
    expect(exported.eventRegistrations.map((r) => r.eventId)).toEqual([event.id]);
    expect((await t.app.request('/api/users/me', { method: 'DELETE', headers: member.headers })).status).toBeLessThan(300);
    expect(await t.database.db.select().from(eventRegistrations).where(eq(eventRegistrations.userId, member.id))).toEqual([]);
  });
});
