/**
 * The members' newsletter through the API on both databases: an editor writes an issue, previews and
 * test-sends it; sending writes exactly one copy per recipient (a retried send and two concurrent
 * sends change nothing), cut at each recipient's level; the account adds up at every moment while the
 * worker delivers (recipients = sent + failed + suppressed + pending); a scheduled issue goes out once
 * when two instances tick together; one-click unsubscribe ends the newsletter only; a bounce
 * suppresses the address for later issues; the member's setting; the archive's gated body; the
 * member's export and deletion.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLevel, Role } from '#shared/access.ts';
import { emails } from '../../functions/email/tables.ts';
import { signWebhook } from '../../functions/email/routes.ts';
import { createEmailWorker } from '../../functions/email/worker.ts';
import { DEMO_ISSUES, seedDemoNewsletter } from '../../functions/newsletter/demo.ts';
import { createRecordingTransport, permanentFailure, temporaryFailure } from '../../functions/platform/mail/recording.ts';
import {
  newsletterDeliveries,
  newsletterIssues,
  newsletterSubscribers,
  newsletterSuppressions,
} from '../../functions/newsletter/tables.ts';
import { profiles } from '../../functions/users/tables.ts';
import { callerOf, createTestApp, type TestApp } from '../support/app.ts';
import type { Api, Answer, ErrorAnswer, ViewerAnswer } from '../support/answers.ts';
import { DATABASE_KINDS } from '../support/databases.ts';
import { rowCounts } from '../support/db-snapshot.ts';
import { quietLogger } from '../support/fixtures.ts';

const PASSWORD = 'newsletter issues pass';
const WEBHOOK_SECRET = 'newsletter-webhook-secret-1234';
const GATED = 'PREMIUM-ISSUE-GATED-91c2';
const BODY = `Everyone reads this opening.\n\n<!-- preview -->\n\nOnly premium readers see ${GATED}.`;

type IssueAnswer = Answer<Api['newsletterAdmin']['issues'][':id']['$get']>['issue'];
type Stats = IssueAnswer['stats'];

/** The members: level, role and their own newsletter choice (null: never chosen). */
const MEMBERS: Record<string, { level: AccessLevel; role?: Role; newsletter: boolean | null; onList?: boolean }> = {
  editor: { level: 'premium', role: 'editor', newsletter: null },
  'free-default': { level: 'free', newsletter: null, onList: true },
  'free-opted-in': { level: 'free', newsletter: true },
  'free-silent': { level: 'free', newsletter: null },
  'subscriber-default': { level: 'subscriber', newsletter: null, onList: true },
  'subscriber-off': { level: 'subscriber', newsletter: false, onList: true },
  'premium-default': { level: 'premium', newsletter: null },
};
/** List subscribers without an account. */
const VISITORS = { 'visitor-confirmed': 'confirmed', 'visitor-pending': 'pending', 'visitor-bounced': 'confirmed' } as const;

describe.each(DATABASE_KINDS)('newsletter issues on %s', (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const address = (who: string) => `${who}-${kind}@issues.test`;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', EMAIL_WEBHOOK_SECRET: WEBHOOK_SECRET });
    const db = t.database.db;
    for (const [who, m] of Object.entries(MEMBERS)) {
      const id = await t.services.auth.createConfirmedUser(address(who), PASSWORD, who);
      await t.services.users.assign(id, m.role ?? 'member', m.level);
      await db.update(profiles).set({ newsletter: m.newsletter }).where(eq(profiles.id, id));
      tokens[who] = (await t.services.auth.signInWithPassword({ email: address(who), password: PASSWORD })).access_token;
      if (m.onList) await db.insert(newsletterSubscribers).values({ email: address(who), status: 'confirmed' });
    }
    for (const [who, status] of Object.entries(VISITORS)) await db.insert(newsletterSubscribers).values({ email: address(who), status });
    await db.insert(newsletterSuppressions).values({ address: address('visitor-bounced'), reason: 'bounced' });
  });
  afterAll(() => t?.close());

  const api = callerOf(() => t.app, tokens);
  const profileOf = async (who: string) =>
    (
      await t.database.db
        .select()
        .from(profiles)
        .where(eq(profiles.email, address(who)))
    )[0]!;
  const json = async <T>(res: Response | Promise<Response>) => (await (await res).json()) as T;
  const draft = async (overrides: Record<string, unknown> = {}) => {
    const input = {
      subject: 'March notes',
      previewText: 'Three tactics',
      body: BODY,
      accessLevel: 'premium',
      audience: ['newsletter', 'free', 'subscriber', 'premium'],
      ...overrides,
    };
    const res = await api('editor', '/api/admin/newsletter/issues', 'POST', input);
    expect(res.status, await res.clone().text()).toBe(201);
    return (await json<{ id: string }>(res)).id;
  };
  const issue = async (id: string) => (await json<{ issue: IssueAnswer }>(api('editor', `/api/admin/newsletter/issues/${id}`))).issue;
  const copiesOf = (issueId: string) => t.database.db.select().from(newsletterDeliveries).where(eq(newsletterDeliveries.issueId, issueId));
  const mailOf = async (issueId: string) => {
    const ids = new Set((await copiesOf(issueId)).map((c) => c.emailId).filter(Boolean));
    return (await t.database.db.select().from(emails).where(eq(emails.template, 'newsletter-issue'))).filter((e) => ids.has(e.id));
  };
  /** The identity the account promises, checked against the audience it must cover. */
  const expectAccount = (stats: Stats, recipients: number) => {
    expect(stats.recipients, JSON.stringify(stats)).toBe(recipients);
    expect(stats.sent + stats.failed + stats.suppressed + stats.pending, JSON.stringify(stats)).toBe(stats.recipients);
  };

  /** Who gets the all-audience issue, at which level (null: a visitor), and who is marked suppressed. */
  const EXPECTED: Record<string, { level: AccessLevel | null; suppressed: boolean }> = {
    editor: { level: 'premium', suppressed: false },
    'free-default': { level: 'free', suppressed: false }, // on the list: their member level
    'free-opted-in': { level: 'free', suppressed: false },
    'subscriber-default': { level: 'subscriber', suppressed: false }, // a member and on the list: one copy
    'subscriber-off': { level: 'subscriber', suppressed: true }, // turned it off: no mail, even from the list
    'premium-default': { level: 'premium', suppressed: false },
    'visitor-confirmed': { level: null, suppressed: false },
    'visitor-bounced': { level: null, suppressed: true },
  };

  let sentId = '';

  it('writes a draft, previews it as each level and sends a test copy only to the editor', async () => {
    sentId = await draft({ subject: 'March notes <b>bold</b>' });
    expect((await issue(sentId)).status).toBe('draft');
    for (const [level, whole] of [
      ['visitor', false],
      ['free', false],
      ['subscriber', false],
      ['premium', true],
    ] as const) {
      const preview = await json<{ subject: string; html: string; text: string }>(
        api('editor', `/api/admin/newsletter/issues/${sentId}/preview?level=${level}`),
      );
      expect(preview.html.includes(GATED), level).toBe(whole);
      expect(preview.text.includes(GATED), level).toBe(whole);
      expect(preview.html).toContain('March notes &lt;b&gt;bold&lt;/b&gt;');
    }
    const test = await api('editor', `/api/admin/newsletter/issues/${sentId}/test`, 'POST', { level: 'free' });
    expect(test.status).toBe(202);
    expect(await test.json()).toEqual({ to: address('editor') });
    const [copy] = await t.database.db
      .select()
      .from(emails)
      .where(and(eq(emails.template, 'newsletter-issue'), eq(emails.to, address('editor'))));
    expect(copy!.subject).toBe('[Test] March notes <b>bold</b>');
    expect(copy!.bodyHtml).not.toContain(GATED);
    expect(await copiesOf(sentId)).toEqual([]);
    expect((await issue(sentId)).stats).toEqual({
      recipients: 0,
      sent: 0,
      failed: 0,
      suppressed: 0,
      pending: 0,
      bounced: 0,
      unsubscribed: 0,
    });
  });

  it('sends exactly one copy per recipient, cut at their level, whatever the send calls do', async () => {
    const send = () => api('editor', `/api/admin/newsletter/issues/${sentId}/send`, 'POST');
    const statuses = (await Promise.all([send(), send()])).map((r) => r.status).sort();
    expect(statuses).toEqual([202, 409]);
    expect((await send()).status).toBe(409);
    const copies = await copiesOf(sentId);
    expect(Object.fromEntries(copies.map((c) => [c.address, { level: c.level, suppressed: c.suppressed }]))).toEqual(
      Object.fromEntries(Object.entries(EXPECTED).map(([who, e]) => [address(who), e])),
    );
    const mail = await mailOf(sentId);
    expect(mail.map((m) => m.to).sort()).toEqual(
      copies
        .filter((c) => !c.suppressed)
        .map((c) => c.address)
        .sort(),
    );
    for (const m of mail) {
      const level = copies.find((c) => c.address === m.to)!.level;
      expect(JSON.stringify(m).includes(GATED), m.to).toBe(level === 'premium');
      expect(m.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    }
    const after = await issue(sentId);
    expect(after.status).toBe('sending');
    expectAccount(after.stats, 8);
    expect(after.stats).toMatchObject({ suppressed: 2, pending: 6, sent: 0 });
  });

  it('keeps the account exact at every moment of delivery, failures and retries included', async () => {
    const transport = createRecordingTransport({
      fail: (m) =>
        m.to === address('visitor-confirmed') ? permanentFailure() : m.to === address('free-opted-in') ? temporaryFailure() : undefined,
    });
    const worker = createEmailWorker({
      db: t.database.db,
      transport,
      logger: quietLogger(),
      batchSize: 2,
      concurrency: 1,
      backoff: () => 3_600_000,
    });
    for (let round = 0; round < 5; round++) {
      await worker.runOnce();
      expectAccount((await issue(sentId)).stats, 8);
    }
    const stats = (await issue(sentId)).stats;
    expect(stats).toMatchObject({ sent: 4, failed: 1, suppressed: 2, pending: 1 });
    // Each recipient's copy reached the transport at most once.
    const copies = new Set((await mailOf(sentId)).map((m) => m.id));
    const delivered = transport.sent.filter((m) => copies.has(m.id)).map((m) => m.to);
    expect(delivered).toHaveLength(4);
    expect(new Set(delivered).size).toBe(4);
  });

  it('suppresses an address the provider reports bounced, for the next issue, and counts the bounce', async () => {
    const [copy] = await t.database.db
      .select()
      .from(emails)
      .where(and(eq(emails.to, address('premium-default')), eq(emails.template, 'newsletter-issue'), eq(emails.status, 'sent')));
    const event = JSON.stringify({
      id: `bounce-${kind}`,
      type: 'bounced',
      messageId: copy!.providerMessageId,
      occurredAt: new Date().toISOString(),
      detail: '550 mailbox gone',
    });
    const res = await t.app.request('/api/email/events', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhook(WEBHOOK_SECRET, event) },
      body: event,
    });
    expect(await res.json()).toEqual({ received: 1, applied: 1 });
    expect((await issue(sentId)).stats.bounced).toBe(1);
    const next = await draft({ subject: 'April notes', audience: ['premium'] });
    expect((await api('editor', `/api/admin/newsletter/issues/${next}/send`, 'POST')).status).toBe(202);
    expect((await copiesOf(next)).map((c) => [c.address, c.suppressed]).sort()).toEqual([
      [address('editor'), false],
      [address('premium-default'), true],
    ]);
  });

  it('ends the newsletter only, with one click from the mail header or the page, and counts it', async () => {
    const mail = await mailOf(sentId);
    const oneClick = (to: string) => new URL(/<([^>]+)>/.exec(mail.find((m) => m.to === to)!.headers['List-Unsubscribe']!)![1]!);
    // RFC 8058: a POST with the List-Unsubscribe=One-Click body, no session.
    const member = oneClick(address('subscriber-default'));
    const res = await t.app.request(`${member.pathname}${member.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    const me = await json<ViewerAnswer>(api('subscriber-default', '/api/users/me'));
    expect(me.viewer).toMatchObject({ accessLevel: 'subscriber', newsletter: false });
    // Without a body too; and the unsubscribe page's button (a form post of the token).
    const visitor = oneClick(address('free-default'));
    expect((await t.app.request(`${visitor.pathname}${visitor.search}`, { method: 'POST' })).status).toBe(200);
    const page = await t.app.request('/api/newsletter/unsubscribe', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: oneClick(address('visitor-confirmed')).searchParams.get('token')! }).toString(),
    });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/newsletter/unsubscribed');
    const list = await t.database.db
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.email, address('free-default')));
    expect(list[0]!.status).toBe('unsubscribed');
    const stats = (await issue(sentId)).stats;
    expect(stats.unsubscribed).toBe(3);
    expectAccount(stats, 8);
    // Nothing else about them changed: still subscribers, still signed in.
    expect((await api('subscriber-default', '/api/users/me')).status).toBe(200);
  });

  it('sends a scheduled issue once when two instances tick together', async () => {
    const id = await draft({ subject: 'Scheduled notes', audience: ['subscriber', 'premium'] });
    const ahead = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const scheduled = await api('editor', `/api/admin/newsletter/issues/${id}/schedule`, 'POST', {
      sendAt: `${ahead}T09:30`,
      timeZone: 'America/New_York',
    });
    expect(scheduled.status).toBe(200);
    const { issue: s } = await json<{ issue: IssueAnswer }>(scheduled);
    expect(s).toMatchObject({ status: 'scheduled', timeZone: 'America/New_York' });
    expect(new Date(s.sendAt!).toLocaleString('en-US', { timeZone: 'America/New_York', hour: 'numeric', minute: '2-digit' })).toBe(
      '9:30 AM',
    );
    expect(
      (await api('editor', `/api/admin/newsletter/issues/${id}/schedule`, 'POST', { sendAt: '2001-01-01T10:00', timeZone: 'UTC' })).status,
    ).toBe(422);
    // Due now; a second instance on the same database ticks at the same moment.
    await t.database.db
      .update(newsletterIssues)
      .set({ sendAt: new Date(Date.now() - 1000) })
      .where(eq(newsletterIssues.id, id));
    const second = await createTestApp(kind, t.database, { AUTH_BCRYPT_COST: '4' });
    try {
      await Promise.all([t.services.newsletterSender.tick(), second.services.newsletterSender.tick()]);
    } finally {
      await second.close();
    }
    const copies = await copiesOf(id);
    // subscriber-off turned it off and premium-default bounced: rows, no mail; subscriber-default unsubscribed above.
    expect(copies.map((c) => c.address).sort()).toEqual([address('editor'), address('premium-default')].sort());
    expect((await mailOf(id)).map((m) => m.to)).toEqual([address('editor')]);
    expect((await issue(id)).status).toBe('sending');
  });

  it('refuses bad input with a 4xx and changes nothing', async () => {
    const id = await draft({ subject: 'Bad input target' });
    const before = await rowCounts(t.database.db);
    const good = { subject: 'S', previewText: '', body: 'B', accessLevel: 'free', audience: ['free'] };
    const bodies: [string, unknown][] = [
      ['an audience of 10 repeats', { ...good, audience: Array.from({ length: 10 }, () => 'free') }],
      ['an audience named twice', { ...good, audience: ['free', 'premium', 'free'] }],
      ['a huge audience list', { ...good, audience: Array.from({ length: 10_000 }, () => 'newsletter') }],
      ['an empty audience', { ...good, audience: [] }],
      ['an unknown audience', { ...good, audience: ['everyone'] }],
      ['an unknown level', { ...good, accessLevel: 'gold' }],
      ['a body over 200,000 characters', { ...good, body: 'x'.repeat(200_001) }],
      ['a body nested a thousand quotes deep', { ...good, body: `${'>'.repeat(1000)} x` }],
      ['a subject over 200 characters', { ...good, subject: 's'.repeat(201) }],
      ['a subject on two lines', { ...good, subject: 'Hello\r\nBcc: all@example.com' }],
      ['wrong types', { ...good, subject: 42, previewText: null, body: ['x'], audience: 'free' }],
      ['an extra field', { ...good, status: 'sent' }],
    ];
    for (const [label, body] of bodies) {
      for (const [method, path] of [
        ['POST', '/api/admin/newsletter/issues'],
        ['PUT', `/api/admin/newsletter/issues/${id}`],
      ]) {
        const res = await api('editor', path!, method, body);
        expect(res.status, `${method} ${label}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${method} ${label}`).toBeLessThan(500);
      }
    }
    const schedules: [string, unknown][] = [
      ['an unknown time zone', { sendAt: '2030-01-01T09:00', timeZone: 'Mars/Olympus_Mons' }],
      ['a zone with a path in it', { sendAt: '2030-01-01T09:00', timeZone: '../../etc/passwd' }],
      ['a date far away', { sendAt: '2099-12-31T23:59', timeZone: 'UTC' }],
      ['a year past the limit', { sendAt: '2200-01-01T00:00', timeZone: 'UTC' }],
      ['a date that does not exist', { sendAt: '2030-02-30T09:00', timeZone: 'UTC' }],
      ['a date in the past', { sendAt: '2020-01-01T09:00', timeZone: 'Pacific/Kiritimati' }],
      ['seconds and an offset', { sendAt: '2030-01-01T09:00:00+02:00', timeZone: 'UTC' }],
      ['a number', { sendAt: 1_900_000_000_000, timeZone: 'UTC' }],
    ];
    for (const [label, body] of schedules) {
      const res = await api('editor', `/api/admin/newsletter/issues/${id}/schedule`, 'POST', body);
      expect(res.status, label).toBe(422);
    }
    for (const level of ['gold', '', 'visitor%00', '__proto__']) {
      expect((await api('editor', `/api/admin/newsletter/issues/${id}/preview?level=${level}`)).status, level).toBe(422);
      expect((await api('editor', `/api/admin/newsletter/issues/${id}/test`, 'POST', { level })).status, level).toBe(422);
    }
    for (const path of [
      '/api/admin/newsletter/issues/not-a-uuid',
      '/api/admin/newsletter/issues/00000000-0000-4000-8000-000000000000/send',
    ]) {
      expect((await api('editor', path, path.endsWith('send') ? 'POST' : 'GET')).status, path).toBe(404);
    }
    expect(await rowCounts(t.database.db)).toEqual(before);
  });

  it('cancels a scheduled issue back to a draft, and refuses to change what went out', async () => {
    const id = await draft({ subject: 'Cancelled notes' });
    const ahead = new Date(Date.now() + 86_400_000).toISOString().slice(0, 16);
    await api('editor', `/api/admin/newsletter/issues/${id}/schedule`, 'POST', { sendAt: ahead, timeZone: 'UTC' });
    expect((await json<{ issue: IssueAnswer }>(api('editor', `/api/admin/newsletter/issues/${id}/cancel`, 'POST'))).issue).toMatchObject({
      status: 'draft',
      sendAt: null,
    });
    expect((await api('editor', `/api/admin/newsletter/issues/${id}`, 'DELETE')).status).toBe(204);
    expect((await api('editor', `/api/admin/newsletter/issues/${sentId}/cancel`, 'POST')).status).toBe(409);
    expect((await api('editor', `/api/admin/newsletter/issues/${sentId}`, 'DELETE')).status).toBe(409);
    const put = await api('editor', `/api/admin/newsletter/issues/${sentId}`, 'PUT', {
      subject: 'x',
      previewText: '',
      body: 'y',
      accessLevel: 'free',
      audience: ['free'],
    });
    expect(put.status).toBe(409);
    expect((await json<ErrorAnswer>(put)).error.code).toBe('conflict');
  });

  it("saves a member's newsletter setting, on by default where the plan includes it", async () => {
    const me = async (who: string) => (await json<ViewerAnswer>(api(who, '/api/users/me'))).viewer.newsletter;
    expect(await me('free-silent')).toBe(false);
    expect(await me('premium-default')).toBe(true);
    const res = await api('free-silent', '/api/users/me', 'PATCH', { newsletter: true });
    expect(res.status).toBe(200);
    expect(await json<{ newsletter: boolean }>(res)).toMatchObject({ newsletter: true });
    expect(await me('free-silent')).toBe(true);
    expect((await api('free-silent', '/api/users/me', 'PATCH', { newsletter: 'yes' })).status).toBe(422);
  });

  it('lists sent issues in the archive and gates each body like an article', async () => {
    const { issues } = await json<Answer<Api['newsletterArchive']['issues']['$get']>>(api(undefined, '/api/newsletter/issues'));
    const listed = issues.map((i) => i.subject);
    expect(listed).toContain('March notes <b>bold</b>');
    expect(listed).not.toContain('Cancelled notes');
    expect(JSON.stringify(issues)).not.toContain(GATED);
    const slug = issues.find((i) => i.subject.startsWith('March'))!.slug;
    const body = (who?: string, s = slug) => api(who, `/api/newsletter/issues/${s}/body`);
    expect((await body()).status).toBe(401);
    expect((await body('free-silent', 'no-such-issue')).status).toBe(404);
    const refused = await body('subscriber-default');
    expect(refused.status).toBe(403);
    expect((await json<ErrorAnswer>(refused)).error.requiredLevel).toBe('premium');
    const allowed = await body('premium-default');
    expect(allowed.headers.get('cache-control')).toContain('private');
    expect((await json<{ html: string }>(allowed)).html).toContain(GATED);
  });

  it("seeds the demo's past issues once, sent to nobody, into the archive with their bodies gated", async () => {
    const editor = await profileOf('editor');
    const queued = (await t.database.db.select().from(emails)).length;
    await seedDemoNewsletter(t.database.db, editor.id);
    await seedDemoNewsletter(t.database.db, editor.id);
    for (const demo of DEMO_ISSUES) {
      const rows = await t.database.db.select().from(newsletterIssues).where(eq(newsletterIssues.slug, demo.slug));
      expect(rows, demo.slug).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'sent', recipients: 0, sent: 0, accessLevel: demo.accessLevel });
      expect(await t.database.db.select().from(newsletterDeliveries).where(eq(newsletterDeliveries.issueId, rows[0]!.id))).toHaveLength(0);
    }
    expect((await t.database.db.select().from(emails)).length).toBe(queued);
    const { issues } = await json<Answer<Api['newsletterArchive']['issues']['$get']>>(api(undefined, '/api/newsletter/issues'));
    expect(issues.map((i) => i.slug)).toEqual(expect.arrayContaining(DEMO_ISSUES.map((d) => d.slug)));
    const members = DEMO_ISSUES.find((d) => d.accessLevel === 'subscriber')!;
    expect((await api('free-silent', `/api/newsletter/issues/${members.slug}/body`)).status).toBe(403);
    expect((await api('subscriber-default', `/api/newsletter/issues/${members.slug}/body`)).status).toBe(200);
  });

  it('spreads the copies over minutes at NEWSLETTER_RATE_PER_MINUTE', async () => {
    const readers = Array.from({ length: 5 }, (_, i) => `rate-reader-${i}-${kind}@issues.test`);
    await t.database.db.insert(newsletterSubscribers).values(readers.map((email) => ({ email, status: 'confirmed' as const })));
    const capped = await createTestApp(kind, t.database, { NEWSLETTER_RATE_PER_MINUTE: '2' });
    try {
      const editor = await profileOf('editor');
      const viewer = { id: editor.id, email: editor.email, role: editor.role, accessLevel: editor.accessLevel };
      const { id } = await capped.services.newsletterIssues.create(viewer, {
        subject: 'Rated notes',
        previewText: '',
        body: 'Short.',
        accessLevel: 'free',
        audience: ['newsletter'],
      });
      const started = Date.now();
      await capped.services.newsletterIssues.send(id);
      const minutes = (await mailOf(id)).map((m) => Math.round((m.nextAttemptAt.getTime() - started) / 60_000)).sort();
      expect(minutes).toEqual([0, 0, 1, 1, 2]);
    } finally {
      await capped.close();
    }
  });

  it("exports a member's copies and anonymises them with the account, keeping the suppression and the issue's account", async () => {
    const data = await json<Record<string, unknown>>(api('premium-default', '/api/users/me/export'));
    expect((data.newsletterCopies as unknown[]).length).toBe(3);
    const { id } = await profileOf('premium-default');
    const before = await copiesOf(sentId);
    await t.services.users.deleteMe({ id, email: address('premium-default'), role: 'member', accessLevel: 'premium' });
    expect(
      await t.database.db
        .select()
        .from(newsletterDeliveries)
        .where(eq(newsletterDeliveries.address, address('premium-default'))),
    ).toEqual([]);
    expect(await t.database.db.select().from(newsletterDeliveries).where(eq(newsletterDeliveries.userId, id))).toEqual([]);
    // The row stays, with nothing that leads back to the member: the same level, status and counts.
    const after = await copiesOf(sentId);
    expect(after).toHaveLength(before.length);
    const gone = after.filter((c) => c.address.startsWith('deleted:'));
    expect(gone).toHaveLength(1);
    expect(gone[0]).toMatchObject({ userId: null, level: 'premium', suppressed: false });
    expect(gone[0]!.address).not.toContain('premium-default');
    expect(
      await t.database.db
        .select()
        .from(newsletterSuppressions)
        .where(eq(newsletterSuppressions.address, address('premium-default'))),
    ).toHaveLength(1);
    expectAccount((await issue(sentId)).stats, 8);
  });
});
