/**
 * How many each newsletter audience reaches, as the Newsletter tab shows before sending
 * (`GET /api/admin/newsletter/audiences`), on both databases: the "Free members" audience reaches
 * nobody until a free member turns the newsletter on, and every count, each audience alone and a
 * choice together, is exactly the number of copies a real send of that audience mails (members on
 * the list counted once, members who turned it off and suppressed addresses not at all). Its role
 * and bad-input answers are in the newsletter's role table and the edge suite.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLevel } from '#shared/access.ts';
import { AUDIENCES, type Audience } from '#shared/newsletter.ts';
import { emails } from '../../functions/email/tables.ts';
import type { AudienceReach } from '../../functions/newsletter/issues/audience.ts';
import { issueBatch } from '../../functions/newsletter/issues/sending.ts';
import { newsletterDeliveries, newsletterSubscribers, newsletterSuppressions } from '../../functions/newsletter/tables.ts';
import { profiles } from '../../functions/users/tables.ts';
import { callerOf, createTestApp, type TestApp } from '../support/app.ts';
import { DATABASE_KINDS } from '../support/databases.ts';

const PASSWORD = 'newsletter reach pass';

/** The members: level, their own newsletter choice (null: never chosen), and whether their address is also on the list. */
const MEMBERS: Record<string, { level: AccessLevel; newsletter: boolean | null; onList?: boolean; suppressed?: boolean }> = {
  'free-default': { level: 'free', newsletter: null, onList: true },
  'free-later': { level: 'free', newsletter: null },
  'subscriber-default': { level: 'subscriber', newsletter: null, onList: true },
  'subscriber-off': { level: 'subscriber', newsletter: false, onList: true },
  'subscriber-bounced': { level: 'subscriber', newsletter: null, suppressed: true },
  'premium-default': { level: 'premium', newsletter: null },
  'premium-off': { level: 'premium', newsletter: false },
};
/** List subscribers without an account. */
const VISITORS = { 'visitor-confirmed': 'confirmed', 'visitor-pending': 'pending', 'visitor-bounced': 'confirmed' } as const;

describe.each(DATABASE_KINDS)('newsletter audience counts on %s', (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const address = (who: string) => `${who}-${kind}@reach.test`;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4' });
    const db = t.database.db;
    const people = { editor: { level: 'premium' as const, newsletter: null }, ...MEMBERS };
    for (const [who, m] of Object.entries(people)) {
      const id = await t.services.auth.createConfirmedUser(address(who), PASSWORD, who);
      await t.services.users.assign(id, who === 'editor' ? 'editor' : 'member', m.level);
      await db.update(profiles).set({ newsletter: m.newsletter }).where(eq(profiles.id, id));
      tokens[who] = (await t.services.auth.signInWithPassword({ email: address(who), password: PASSWORD })).access_token;
    }
    for (const [who, m] of Object.entries(MEMBERS)) {
      if (m.onList) await db.insert(newsletterSubscribers).values({ email: address(who), status: 'confirmed' });
      if (m.suppressed) await db.insert(newsletterSuppressions).values({ address: address(who), reason: 'bounced' });
    }
    for (const [who, status] of Object.entries(VISITORS)) await db.insert(newsletterSubscribers).values({ email: address(who), status });
    await db.insert(newsletterSuppressions).values({ address: address('visitor-bounced'), reason: 'bounced' });
  });
  afterAll(() => t?.close());

  const api = callerOf(() => t.app, tokens);
  const reach = async (selected: readonly Audience[]) => {
    const res = await api('editor', `/api/admin/newsletter/audiences?selected=${selected.join(',')}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as AudienceReach;
  };
  /** Sends an issue to `audience` and answers how many copies it mailed (outbox rows in its batch; each copy row not suppressed has one). */
  const mailedBySending = async (audience: readonly Audience[]) => {
    const input = { subject: `To ${audience.join(' and ')}`, previewText: '', body: 'Hello.', accessLevel: 'free', audience };
    const created = await api('editor', '/api/admin/newsletter/issues', 'POST', input);
    const { id } = (await created.json()) as { id: string };
    expect((await api('editor', `/api/admin/newsletter/issues/${id}/send`, 'POST')).status).toBe(202);
    const db = t.database.db;
    const mails = await db
      .select()
      .from(emails)
      .where(eq(emails.batch, issueBatch(id)));
    const copies = await db
      .select()
      .from(newsletterDeliveries)
      .where(and(eq(newsletterDeliveries.issueId, id), eq(newsletterDeliveries.suppressed, false)));
    expect(new Set(mails.map((m) => m.to.toLowerCase())).size, 'one mail per address').toBe(mails.length);
    expect(copies.length).toBe(mails.length);
    return mails.length;
  };

  it('shows that Free members reach nobody until a free member turns the newsletter on', async () => {
    const before = await reach(['free']);
    // Free members get it only when they ask ("free-default" is on the list: the list audience's); the editor is a premium reader.
    expect(before).toEqual({ recipients: { newsletter: 3, free: 0, subscriber: 1, premium: 2 }, selected: 0 });
    const optIn = await api('free-later', '/api/users/me', 'PATCH', { newsletter: true });
    expect(optIn.status).toBe(200);
    expect(await reach(['free'])).toEqual({ recipients: { newsletter: 3, free: 1, subscriber: 1, premium: 2 }, selected: 1 });
  });

  it('counts exactly the copies a send mails, for each audience alone and for a choice together', async () => {
    const all = await reach(AUDIENCES);
    const pairs = await reach(['newsletter', 'subscriber']);
    for (const audience of AUDIENCES) expect(await mailedBySending([audience]), audience).toBe(all.recipients[audience]);
    // A member on the list and at a chosen level is one copy, not two.
    expect(pairs.selected).toBeLessThan(pairs.recipients.newsletter + pairs.recipients.subscriber);
    expect(await mailedBySending(['newsletter', 'subscriber'])).toBe(pairs.selected);
    expect(await mailedBySending(AUDIENCES)).toBe(all.selected);
    // Sending changed nobody's reach.
    expect(await reach(AUDIENCES)).toEqual(all);
  });

  it('refuses a choice that is not a list of distinct audiences with 422 and the field named', async () => {
    for (const selected of ['gold', 'premium,premium', 'newsletter,', 'premium%00', AUDIENCES.concat('newsletter').join(',')]) {
      const res = await api('editor', `/api/admin/newsletter/audiences?selected=${selected}`);
      expect(res.status, selected).toBe(422);
      const body = (await res.json()) as { error: { code: string; message: string; fields: Record<string, string[]> } };
      expect(body.error.code, selected).toBe('validation_failed');
      expect(
        Object.keys(body.error.fields).some((f) => f.startsWith('selected')),
        selected,
      ).toBe(true);
    }
  });

  it('answers each audience alone when nothing is chosen', async () => {
    const res = await api('editor', '/api/admin/newsletter/audiences');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ selected: 0, recipients: { newsletter: expect.any(Number), free: expect.any(Number) } });
  });
});
