/**
 * The community's reply mails through the API and the round, on PGlite and Postgres: replies within
 * 15 minutes batched into one mail per thread and follower (and another after the window, listing
 * only what came since), the replier never mailed about their own reply, a muted thread and the
 * global setting off sending nothing, the one-click unsubscribe (RFC 8058) and the mute link doing
 * what they say, a member whose level dropped below a premium category getting no mail and never
 * its title, a comments thread's mail linking to its article, and two instances ticking at once
 * sending each mail once. Mails are read from the outbox, where every mail starts.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLevel } from '#shared/access.ts';
import { communityCategories, communityFollows } from '../../functions/community/tables.ts';
import { emails, type EmailRow } from '../../functions/email/tables.ts';
import { profiles } from '../../functions/users/tables.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { DATABASE_KINDS } from '../support/databases.ts';
import { signedInMember } from '../support/events.ts';

const WINDOW = 15 * 60_000;
const later = (ms: number) => new Date(Date.now() + ms);

describe.each(DATABASE_KINDS)('community reply mails on %s', (kind) => {
  let t: TestApp;
  let n = 0;
  const general = `general-${kind}`;
  const lounge = `lounge-${kind}`;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4' });
    await t.database.db.insert(communityCategories).values([
      { slug: general, name: 'General', accessLevel: 'free', anyoneReads: true, position: 1 },
      { slug: lounge, name: 'Premium lounge', accessLevel: 'premium', position: 2 },
    ]);
  });
  afterAll(() => t?.close());

  /** A signed-in member a month old (the hold rule spares them), named for the mails. */
  async function member(name: string, level: AccessLevel = 'free') {
    const m = await signedInMember(t, `${name.toLowerCase()}-${(n += 1)}-${kind}@notify.test`, 'member', level);
    await t.database.db
      .update(profiles)
      .set({ name, createdAt: new Date(Date.now() - 30 * 86_400_000) })
      .where(eq(profiles.id, m.id));
    return m;
  }
  type Member = Awaited<ReturnType<typeof member>>;

  async function call(who: Member | undefined, path: string, method = 'GET', body?: unknown, status = 200) {
    const res = await t.app.request(`/api/community${path}`, {
      method,
      headers: { ...(who?.headers ?? {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    expect(res.status, `${method} ${path}: ${text}`).toBe(status);
    return JSON.parse(text) as Record<string, unknown>;
  }
  const thread = async (who: Member, title: string, category = general) =>
    (await call(who, '/threads', 'POST', { category, title, body: `${title}: the opening post.` }, 201)).id as string;
  const reply = (who: Member, threadId: string, body: string) => call(who, `/threads/${threadId}/replies`, 'POST', { body }, 201);
  const tick = (now = new Date(), app = t) => app.services.communityNotifications.mails.tick(now);

  /** The reply mails queued to a member about a thread, oldest first. */
  async function mailsTo(who: Member, threadId: string): Promise<EmailRow[]> {
    const rows = await t.database.db
      .select()
      .from(emails)
      .where(and(eq(emails.template, 'community-replies'), eq(emails.to, who.email)))
      .orderBy(emails.createdAt);
    return rows.filter((row) => row.bodyText.includes(`/community/threads/${threadId}`));
  }
  const follow = async (who: Member, threadId: string) =>
    (
      await t.database.db
        .select()
        .from(communityFollows)
        .where(and(eq(communityFollows.threadId, threadId), eq(communityFollows.userId, who.id)))
    )[0];

  it('batches the replies of 15 minutes into one mail per follower, never about their own, and mails again after the window', async () => {
    const [ada, bo, cy] = [await member('Ada'), await member('Bo'), await member('Cy')];
    const id = await thread(ada, 'Pricing a retainer');
    await reply(bo, id, 'Bo one: charge by outcome.');
    await reply(cy, id, 'Cy one: **start** with a pilot & see if 2 < 3.');
    await reply(bo, id, 'Bo two: and review quarterly.');
    await tick();

    // Ada (the author) hears of all three; Bo of Cy's and his own second not; Cy of Bo's second only.
    const [toAda] = await mailsTo(ada, id);
    expect(await mailsTo(ada, id)).toHaveLength(1);
    expect(toAda!.subject).toBe('3 new replies in "Pricing a retainer"');
    expect(toAda!.bodyText).toContain('Bo wrote:\nBo one: charge by outcome.');
    expect(toAda!.bodyText).toContain('Cy wrote:\nCy one: start with a pilot & see if 2 < 3.');
    expect(toAda!.bodyText).toContain('Bo wrote:\nBo two: and review quarterly.');
    expect(toAda!.bodyHtml).toContain('pilot &amp; see if 2 &lt; 3.');
    expect(toAda!.bodyText).toMatch(/Mute this thread: http:\/\/[^\s]+\/account\/notifications\/mute\?token=/);
    expect(toAda!.headers['List-Unsubscribe']).toMatch(
      /^<http:\/\/[^>]+\/api\/community\/notifications\/unsubscribe\?token=[^>]+>, <mailto:/,
    );
    expect(toAda!.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const toBo = await mailsTo(bo, id);
    expect(toBo.map((m) => m.subject)).toEqual(['Cy replied in "Pricing a retainer"']);
    expect(toBo[0]!.bodyText).not.toContain('Bo one');
    const toCy = await mailsTo(cy, id);
    expect(toCy.map((m) => m.subject)).toEqual(['Bo replied in "Pricing a retainer"']);
    expect(toCy[0]!.bodyText).toContain('Bo two');
    expect(toCy[0]!.bodyText).not.toContain('Bo one');

    // Within the window: a new reply waits, however often the round looks.
    await reply(cy, id, 'Cy two: a late thought.');
    expect(await tick()).toBe(0);
    expect(await tick(later(WINDOW - 60_000))).toBe(0);
    expect(await mailsTo(ada, id)).toHaveLength(1);
    // After it: one more mail each to Ada and Bo, listing only the new reply; none to Cy, who wrote it.
    expect(await tick(later(WINDOW + 60_000))).toBe(2);
    for (const who of [ada, bo]) {
      const mails = await mailsTo(who, id);
      expect(mails).toHaveLength(2);
      expect(mails[1]!.subject).toBe('Cy replied in "Pricing a retainer"');
      expect(mails[1]!.bodyText).toContain('Cy two: a late thought.');
      expect(mails[1]!.bodyText).not.toContain('Bo two');
    }
    expect(await mailsTo(cy, id)).toHaveLength(1);
    expect((await follow(ada, id))!.pendingSince).toBeNull();
  });

  it('mails nothing about a muted thread, and after unmuting only what came since', async () => {
    const [ada, bo] = [await member('Ada'), await member('Bo')];
    const id = await thread(ada, 'Muted thread');
    expect(await call(ada, `/threads/${id}/mute`, 'PUT', { muted: true })).toEqual({ muted: true });
    await reply(bo, id, 'While muted.');
    expect(await tick(later(WINDOW + 60_000))).toBe(0);
    expect(await mailsTo(ada, id)).toHaveLength(0);

    expect(await call(ada, `/threads/${id}/mute`, 'PUT', { muted: false })).toEqual({ muted: false });
    await reply(bo, id, 'After unmuting.');
    expect(await tick(later(WINDOW + 60_000))).toBe(1);
    const [mail] = await mailsTo(ada, id);
    expect(mail!.bodyText).toContain('After unmuting.');
    expect(mail!.bodyText).not.toContain('While muted.');
  });

  it('mails nothing while the member turned reply mails off', async () => {
    const [ada, bo] = [await member('Ada'), await member('Bo')];
    expect(await call(ada, '/settings')).toEqual({ notifications: true });
    expect(await call(ada, '/settings', 'PUT', { notifications: false })).toEqual({ notifications: false });
    expect(await call(ada, '/settings')).toEqual({ notifications: false });
    const id = await thread(ada, 'Setting off');
    await reply(bo, id, 'Nobody hears this.');
    expect(await tick()).toBe(0);
    expect(await mailsTo(ada, id)).toHaveLength(0);
    // Dealt with: turning mails on later brings only the replies after it.
    expect((await follow(ada, id))!.pendingSince).toBeNull();
    await call(ada, '/settings', 'PUT', { notifications: true });
    await reply(bo, id, 'Now you hear this.');
    expect(await tick(later(WINDOW + 60_000))).toBe(1);
    const [mail] = await mailsTo(ada, id);
    expect(mail!.bodyText).toContain('Now you hear this.');
    expect(mail!.bodyText).not.toContain('Nobody hears this.');
  });

  it("turns reply mails off with the mail's one-click unsubscribe, and mutes a thread with its mute link", async () => {
    const [ada, bo] = [await member('Ada'), await member('Bo')];
    const id = await thread(ada, 'One click');
    await reply(bo, id, 'Hello Ada.');
    await tick();
    const [mail] = await mailsTo(ada, id);
    const oneClick = new URL(/^<([^>]+)>/.exec(mail!.headers['List-Unsubscribe']!)![1]!);
    const mute = new URL(/Mute this thread: (\S+)/.exec(mail!.bodyText)![1]!);

    // The mute page's form posts the token: the thread is muted, the setting untouched.
    const muteToken = mute.searchParams.get('token')!;
    const form = (token: string) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${token}`,
    });
    const muted = await t.app.request('/api/community/notifications/mute', form(muteToken));
    expect(muted.status).toBe(303);
    expect(muted.headers.get('location')).toBe('/account/notifications/muted');
    expect((await follow(ada, id))!.muted).toBe(true);
    expect(await call(ada, '/settings')).toEqual({ notifications: true });

    // A tampered token changes nothing (400 for a mail client, the page's message for a form).
    const tampered = `${oneClick.search.slice('?token='.length, -2)}xx`;
    const bad = await t.app.request(`/api/community/notifications/unsubscribe?token=${tampered}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(bad.status).toBe(400);
    const badForm = await t.app.request('/api/community/notifications/unsubscribe', form(tampered));
    expect(badForm.headers.get('location')).toBe('/account/notifications/unsubscribe?error=invalid');
    // A mute token is not an unsubscribe token.
    expect((await t.app.request(`/api/community/notifications/unsubscribe?token=${muteToken}`, { method: 'POST' })).status).toBe(400);
    expect(await call(ada, '/settings')).toEqual({ notifications: true });

    // RFC 8058: the mail client POSTs List-Unsubscribe=One-Click to the header's URL, with no session.
    const res = await t.app.request(`${oneClick.pathname}${oneClick.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'unsubscribed' });
    expect(await call(ada, '/settings')).toEqual({ notifications: false });
  });

  it('sends a member whose level dropped below a premium category no mail and never its title', async () => {
    const [pat, quinn, rae] = [await member('Pat', 'premium'), await member('Quinn', 'premium'), await member('Rae', 'premium')];
    const title = 'LOUNGE-TITLE-4c1d premium tactics';
    const id = await thread(pat, title, lounge);
    await reply(quinn, id, 'A premium reply.');
    await t.services.users.assign(pat.id, 'member', 'free');
    await reply(rae, id, 'Another premium reply.');
    await tick();

    expect(await mailsTo(pat, id)).toHaveLength(0);
    const toPat = await t.database.db.select().from(emails).where(eq(emails.to, pat.email));
    for (const row of toPat) expect(`${row.subject}${row.bodyText}${row.bodyHtml}`).not.toContain('LOUNGE-TITLE-4c1d');
    expect((await follow(pat, id))!.pendingSince).toBeNull();
    // The premium follower still hears of it, title and all (the check above can fail).
    const [toQuinn] = await mailsTo(quinn, id);
    expect(toQuinn!.subject).toBe(`Rae replied in "${title}"`);
    expect(toQuinn!.bodyText).toContain('Premium lounge');
  });

  it("links a comments thread's mail to the article it is under", async () => {
    const [ada, bo] = [await member('Ada'), await member('Bo')];
    const article = (await t.content.list('blog')).find((item) => item.accessLevel === 'free')!;
    await call(ada, `/comments/blogs/${article.slug}`, 'POST', { body: 'First comment.' }, 201);
    await call(bo, `/comments/blogs/${article.slug}`, 'POST', { body: 'A reply under the article.' }, 201);
    expect(await tick()).toBeGreaterThanOrEqual(1);
    const rows = await t.database.db
      .select()
      .from(emails)
      .where(and(eq(emails.template, 'community-replies'), eq(emails.to, ada.email)));
    const mail = rows.find((row) => row.bodyText.includes('A reply under the article.'))!;
    expect(mail.bodyText).toContain(`Comments on ${article.title}`);
    expect(mail.bodyText).toContain(`/blog/${article.slug}`);
  });

  it('queues each mail once when two instances run the round at the same moment', async () => {
    const other = await createTestApp(kind, t.database, { AUTH_BCRYPT_COST: '4' });
    try {
      const [ada, bo, cy] = [await member('Ada'), await member('Bo'), await member('Cy')];
      const ids = [await thread(ada, 'Twice one'), await thread(ada, 'Twice two')];
      for (const id of ids) {
        await reply(bo, id, 'From Bo.');
        await reply(cy, id, 'From Cy.');
      }
      const [a, b] = await Promise.all([tick(new Date(), t), tick(new Date(), other)]);
      // Per thread: Ada (both replies) and Bo (Cy's); Cy wrote last and hears nothing.
      expect(a + b).toBe(4);
      for (const id of ids) {
        expect(await mailsTo(ada, id)).toHaveLength(1);
        expect(await mailsTo(bo, id)).toHaveLength(1);
        expect(await mailsTo(cy, id)).toHaveLength(0);
      }
    } finally {
      await other.close();
    }
  });
});
