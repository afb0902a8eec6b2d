/**
 * The members' newsletter where it used to break, on both databases: a hostile body (nested a
 * thousand quotes deep) is refused with a 422 by the issue API and the creator tools alike, and one
 * already stored neither answers 5xx nor blocks the scheduler (it is marked failed, the next issue
 * goes out); saving settings keeps the level's newsletter default, so an upgrade brings it; one-click
 * unsubscribe acts on whoever owns the address now; the copy row, not the code, guarantees one copy;
 * a bounce or unsubscribe mid-send withdraws the address's queued copies; the scheduler stores a
 * finished issue's account and the list only reads; slugs never run out.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLevel } from '#shared/access.ts';
import { emails } from '../../functions/email/tables.ts';
import { signWebhook } from '../../functions/email/routes.ts';
import { createEmailWorker } from '../../functions/email/worker.ts';
import { createRecordingTransport } from '../../functions/platform/mail/recording.ts';
import { newsletterDeliveries, newsletterIssues, newsletterSubscribers } from '../../functions/newsletter/tables.ts';
import { profiles } from '../../functions/users/tables.ts';
import type { Api, Answer, ErrorAnswer, ViewerAnswer } from '../support/answers.ts';
import { callerOf, createTestApp, type TestApp } from '../support/app.ts';
import { DATABASE_KINDS } from '../support/databases.ts';
import { rowCounts } from '../support/db-snapshot.ts';
import { makeBlogInput, quietLogger } from '../support/fixtures.ts';

const PASSWORD = 'newsletter robustness pass';
const WEBHOOK_SECRET = 'newsletter-robust-secret-5678';
const HOSTILE = `${'>'.repeat(1000)} x`;
const NESTING = 'Quotes and lists may be nested at most 20 levels deep';

type IssueAnswer = Answer<Api['newsletterAdmin']['issues'][':id']['$get']>['issue'];

describe.each(DATABASE_KINDS)('newsletter robustness on %s', (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const address = (who: string) => `${who}-${kind}@robust.test`;

  async function member(who: string, level: AccessLevel, role: 'member' | 'editor' = 'member') {
    ids[who] = await t.services.auth.createConfirmedUser(address(who), PASSWORD, who);
    await t.services.users.assign(ids[who], role, level);
    tokens[who] = (await t.services.auth.signInWithPassword({ email: address(who), password: PASSWORD })).access_token;
  }

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', EMAIL_WEBHOOK_SECRET: WEBHOOK_SECRET });
    await member('editor', 'premium', 'editor');
  });
  afterAll(() => t?.close());

  const api = callerOf(() => t.app, tokens);
  const json = async <T>(res: Response | Promise<Response>) => (await (await res).json()) as T;
  const input = (overrides: Record<string, unknown> = {}) => ({
    subject: 'Robust notes',
    previewText: '',
    body: 'Everyone reads this.\n\n<!-- preview -->\n\nMembers read this.',
    accessLevel: 'free',
    audience: ['newsletter'],
    ...overrides,
  });
  const draft = async (overrides: Record<string, unknown> = {}) => {
    const res = await api('editor', '/api/admin/newsletter/issues', 'POST', input(overrides));
    expect(res.status, await res.clone().text()).toBe(201);
    return (await json<{ id: string }>(res)).id;
  };
  const issue = async (id: string) => (await json<{ issue: IssueAnswer }>(api('editor', `/api/admin/newsletter/issues/${id}`))).issue;
  const row = async (id: string) => (await t.database.db.select().from(newsletterIssues).where(eq(newsletterIssues.id, id)))[0]!;
  /** An issue stored as it was before bodies were checked (the API refuses it now). */
  const storedIssue = async (overrides: Partial<typeof newsletterIssues.$inferInsert>) => {
    const [inserted] = await t.database.db
      .insert(newsletterIssues)
      .values({ slug: `stored-${randomUUID().slice(0, 8)}`, subject: 'Stored', body: 'Fine.', audience: ['newsletter'], ...overrides })
      .returning();
    return inserted!;
  };
  const mailTo = (to: string, issueId: string) =>
    t.database.db
      .select()
      .from(emails)
      .where(and(eq(emails.to, to), eq(emails.batch, `newsletter:${issueId}`)));
  const worker = () =>
    createEmailWorker({ db: t.database.db, transport: createRecordingTransport(), logger: quietLogger(), batchSize: 500 });
  const expectAccount = (stats: IssueAnswer['stats'], recipients: number) => {
    expect(stats.recipients, JSON.stringify(stats)).toBe(recipients);
    expect(stats.sent + stats.failed + stats.suppressed + stats.pending, JSON.stringify(stats)).toBe(recipients);
  };

  it('refuses a body nested too deep with a 422 on the body, in issues and in the creator tools, changing nothing', async () => {
    const id = await draft();
    const before = await rowCounts(t.database.db);
    for (const [method, path] of [
      ['POST', '/api/admin/newsletter/issues'],
      ['PUT', `/api/admin/newsletter/issues/${id}`],
    ] as const) {
      for (const body of [HOSTILE, `Public.\n\n<!-- preview -->\n\n${HOSTILE}`]) {
        const res = await api('editor', path, method, input({ body }));
        expect(res.status, method).toBe(422);
        expect((await json<ErrorAnswer>(res)).error.fields).toEqual({ body: [NESTING] });
      }
    }
    const post = await api('editor', '/api/content/blogs', 'POST', makeBlogInput({ content: HOSTILE }));
    expect(post.status).toBe(422);
    expect((await json<ErrorAnswer>(post)).error.fields).toEqual({ content: [NESTING] });
    expect(await rowCounts(t.database.db)).toEqual(before);
  });

  it('answers 422, never 5xx, for a stored issue whose body cannot render, and sends nothing', async () => {
    const stored = await storedIssue({ body: HOSTILE });
    const base = `/api/admin/newsletter/issues/${stored.id}`;
    const before = await rowCounts(t.database.db);
    expect((await api('editor', `${base}/preview?level=premium`)).status).toBe(422);
    expect((await api('editor', `${base}/test`, 'POST', { level: 'premium' })).status).toBe(422);
    expect((await api('editor', `${base}/send`, 'POST')).status).toBe(422);
    expect(await rowCounts(t.database.db)).toEqual(before);
    expect((await row(stored.id)).status).toBe('draft');
  });

  it('marks a due issue that cannot be sent failed and sends the next one in the same round', async () => {
    await t.database.db.insert(newsletterSubscribers).values({ email: address('reader'), status: 'confirmed' });
    const due = new Date(Date.now() - 60_000);
    const bad = await storedIssue({ body: HOSTILE, status: 'scheduled', sendAt: new Date(due.getTime() - 60_000), timeZone: 'UTC' });
    const good = await draft({ subject: 'Due after the bad one' });
    await t.database.db
      .update(newsletterIssues)
      .set({ status: 'scheduled', sendAt: due, timeZone: 'UTC' })
      .where(eq(newsletterIssues.id, good));
    await t.services.newsletterSender.tick();
    expect((await row(bad.id)).status).toBe('failed');
    expect((await row(good)).status).toBe('sending');
    expect(await mailTo(address('reader'), good)).toHaveLength(1);
    expect(await mailTo(address('reader'), bad.id)).toHaveLength(0);
    // The failed issue is out of the schedule: the next round has nothing to trip on, and staff can still change or delete it.
    await expect(t.services.newsletterSender.tick()).resolves.toBeUndefined();
    expect((await issue(bad.id)).status).toBe('failed');
    expect((await api('editor', `/api/admin/newsletter/issues/${bad.id}`, 'PUT', input())).status).toBe(200);
    expect((await api('editor', `/api/admin/newsletter/issues/${bad.id}`, 'DELETE')).status).toBe(204);
  });

  it('keeps the newsletter default when settings are saved, so an upgrade brings the newsletter', async () => {
    await member('saver', 'free');
    await member('unticker', 'free');
    const stored = async (who: string) =>
      (await t.database.db.select({ newsletter: profiles.newsletter }).from(profiles).where(eq(profiles.id, ids[who]!)))[0]!.newsletter;
    // The account page now sends only the language; it used to send the box as shown (off), which the server now stores as no choice.
    expect((await api('saver', '/api/users/me', 'PATCH', { language: 'es' })).status).toBe(200);
    expect((await api('unticker', '/api/users/me', 'PATCH', { language: 'fr', newsletter: false })).status).toBe(200);
    expect(await stored('saver')).toBeNull();
    expect(await stored('unticker')).toBeNull();
    for (const who of ['saver', 'unticker']) await t.services.users.assign(ids[who]!, 'member', 'subscriber');
    expect((await json<ViewerAnswer>(api('saver', '/api/users/me'))).viewer.newsletter).toBe(true);
    const id = await draft({ subject: 'For subscribers', audience: ['subscriber'] });
    expect((await api('editor', `/api/admin/newsletter/issues/${id}/send`, 'POST')).status).toBe(202);
    expect(await mailTo(address('saver'), id)).toHaveLength(1);
    expect(await mailTo(address('unticker'), id)).toHaveLength(1);
    // A real choice against the default is kept.
    await api('saver', '/api/users/me', 'PATCH', { newsletter: false });
    expect(await stored('saver')).toBe(false);
  });

  it("unsubscribes whoever owns the copy's address now, never the member who moved away from it", async () => {
    await member('mover', 'subscriber');
    const id = await draft({ subject: 'Before the move', audience: ['subscriber'] });
    await api('editor', `/api/admin/newsletter/issues/${id}/send`, 'POST');
    const [copy] = await mailTo(address('mover'), id);
    const oneClick = new URL(/<([^>]+)>/.exec(copy!.headers['List-Unsubscribe']!)![1]!);
    // The member changes address; another member takes the old one.
    await t.database.db
      .update(profiles)
      .set({ email: address('moved') })
      .where(eq(profiles.id, ids.mover!));
    await member('newcomer', 'premium');
    await t.database.db
      .update(profiles)
      .set({ email: address('mover') })
      .where(eq(profiles.id, ids.newcomer!));
    const res = await t.app.request(`${oneClick.pathname}${oneClick.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    const choice = async (email: string) =>
      (await t.database.db.select({ newsletter: profiles.newsletter }).from(profiles).where(eq(profiles.email, email)))[0]!.newsletter;
    expect(await choice(address('mover'))).toBe(false);
    expect(await choice(address('moved'))).toBeNull();
    expect((await issue(id)).stats.unsubscribed).toBe(1);
  });

  it('queues mail only for copy rows that are new: an existing row for an address means no second copy', async () => {
    await t.database.db.insert(newsletterSubscribers).values({ email: address('listed'), status: 'confirmed' });
    const id = await draft({ subject: 'Row first' });
    await t.database.db.insert(newsletterDeliveries).values({ issueId: id, address: address('listed'), level: null });
    expect((await api('editor', `/api/admin/newsletter/issues/${id}/send`, 'POST')).status).toBe(202);
    expect(await mailTo(address('listed'), id)).toHaveLength(0);
    expect(await mailTo(address('reader'), id)).toHaveLength(1);
    const copies = await t.database.db.select().from(newsletterDeliveries).where(eq(newsletterDeliveries.issueId, id));
    expect(copies.find((c) => c.address === address('reader'))!.emailId).toBe((await mailTo(address('reader'), id))[0]!.id);
  });

  it('withdraws the queued copies of an address that bounces or unsubscribes mid-send, and counts them failed', async () => {
    await t.database.db.insert(newsletterSubscribers).values({ email: address('quitter'), status: 'confirmed' });
    const first = await draft({ subject: 'Earlier issue' });
    await api('editor', `/api/admin/newsletter/issues/${first}/send`, 'POST');
    await worker().runOnce();
    // The next issue is still queued when the reports about the earlier one arrive.
    const next = await draft({ subject: 'Issue mid-send' });
    await api('editor', `/api/admin/newsletter/issues/${next}/send`, 'POST');
    const [bounced] = await mailTo(address('reader'), first);
    const event = JSON.stringify({
      id: `bounce-${kind}-${randomUUID()}`,
      type: 'bounced',
      messageId: bounced!.providerMessageId,
      occurredAt: new Date().toISOString(),
    });
    const res = await t.app.request('/api/email/events', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhook(WEBHOOK_SECRET, event) },
      body: event,
    });
    expect(res.status).toBe(200);
    const [unsubscribing] = await mailTo(address('listed'), first);
    const link = new URL(/<([^>]+)>/.exec(unsubscribing!.headers['List-Unsubscribe']!)![1]!);
    expect((await t.app.request(`${link.pathname}${link.search}`, { method: 'POST' })).status).toBe(200);
    // A list mail's own link (the welcome mail's) ends a list reader's issues too.
    const [quitter] = await t.database.db
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.email, address('quitter')));
    const listToken = await t.services.tokens.sign('newsletter-unsubscribe', { sub: quitter!.id });
    expect((await api(undefined, '/api/newsletter/unsubscribe', 'POST', { token: listToken })).status).toBe(200);
    for (const who of ['reader', 'listed', 'quitter']) {
      const [withdrawn] = await mailTo(address(who), next);
      expect(withdrawn, who).toMatchObject({ status: 'failed', errorMessage: expect.stringMatching(/^Not sent: /) });
    }
    const transport = createRecordingTransport();
    await createEmailWorker({ db: t.database.db, transport, logger: quietLogger() }).runOnce();
    for (const who of ['reader', 'listed', 'quitter']) expect(transport.sent.map((m) => m.to)).not.toContain(address(who));
    const stats = (await issue(next)).stats;
    expect(stats).toMatchObject({ failed: 3, pending: 0 });
    expectAccount(stats, 3);
    expect((await issue(first)).stats).toMatchObject({ bounced: 1, unsubscribed: 1 });
  });

  it('stores the account when the scheduler marks an issue sent; reading the list writes nothing', async () => {
    const id = await draft({ subject: 'Stored account', audience: ['subscriber', 'premium'] });
    await api('editor', `/api/admin/newsletter/issues/${id}/send`, 'POST');
    await worker().runOnce();
    const before = await row(id);
    const { issues } = await json<{ issues: IssueAnswer[] }>(api('editor', '/api/admin/newsletter/issues'));
    expect(issues.find((i) => i.id === id)!.status).toBe('sent');
    expect(await row(id)).toEqual(before);
    await t.services.newsletterSender.tick();
    const sent = await row(id);
    expect(sent).toMatchObject({ status: 'sent', recipients: before.recipients, failed: 0 });
    expect(sent.sent).toBeGreaterThan(0);
    expectAccount((await issue(id)).stats, sent.recipients);
  });

  it('gives every issue a slug: a random suffix when the subject’s is taken, reserved or has no words', async () => {
    const slugOf = async (subject: string) => (await row(await draft({ subject }))).slug;
    const first = await slugOf('Same subject');
    expect(first).toBe('same-subject');
    const second = await slugOf('Same subject');
    expect(second).toMatch(/^same-subject-[0-9a-f]{6}$/);
    expect(await slugOf('RSS')).toMatch(/^rss-[0-9a-f]{6}$/);
    expect(await slugOf('!!!')).toMatch(/^issue(-[0-9a-f]{6})?$/);
    expect(await slugOf('!!!')).toMatch(/^issue-[0-9a-f]{6}$/);
  });
});
