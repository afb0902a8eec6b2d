/**
 * Contact and lead capture on both databases: what is stored and mailed, every kind of bad input
 * (missing fields, wrong types, oversize, header injection, HTML), honeypots, abuse limits, and the
 * signed download links.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contactMessages } from '../../functions/contact/tables.ts';
import { emails } from '../../functions/email/tables.ts';
import { leads } from '../../functions/leads/tables.ts';
import { rateLimits } from '../../functions/platform/abuse/tables.ts';
import { createTestApp, CONTENT_DIR, type TestApp } from '../support/app.ts';
import type { Api, Answer, ErrorAnswer } from '../support/answers.ts';
import { DATABASE_KINDS } from '../support/databases.ts';

type LeadAnswer = Answer<Api['leads']['index']['$post']>;
const VALID_CONTACT = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  subject: 'Help with local SEO',
  message: 'We run two bakeries in Baltimore.\n\nCan you help us rank in the map pack?',
};

describe.each(DATABASE_KINDS)('contact and leads on %s', (kind) => {
  let t: TestApp;
  let ip = 0;
  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { CONTACT_INBOX: 'inbox@beacongrowth.co' });
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    ip += 1;
    await t.database.db.delete(rateLimits);
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    t.app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `192.0.2.${ip}`, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const mailsTo = (to: string) => t.database.db.select().from(emails).where(eq(emails.to, to));

  describe('POST /api/contact', () => {
    it('stores the message, notifies the inbox (Reply-To the sender) and acknowledges the sender', async () => {
      const res = await post('/api/contact', VALID_CONTACT);
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ status: 'received' });
      const [stored] = await t.database.db.select().from(contactMessages).where(eq(contactMessages.email, 'ada@example.com'));
      expect(stored).toMatchObject({ name: 'Ada Lovelace', subject: 'Help with local SEO', ip: `192.0.2.${ip}` });
      const [notice] = await mailsTo('inbox@beacongrowth.co');
      expect(notice).toMatchObject({
        template: 'contact-notification',
        replyTo: 'ada@example.com',
        subject: 'New enquiry: Help with local SEO',
      });
      const [ack] = await mailsTo('ada@example.com');
      expect(ack!.template).toBe('contact-acknowledgement');
      expect(ack!.bodyText).toContain('within 24 hours');
      // The unverified address gets our words only: nothing the visitor typed is quoted back.
      for (const typed of [VALID_CONTACT.name, VALID_CONTACT.subject, 'bakeries', 'map pack']) {
        expect(`${ack!.subject}\n${ack!.bodyText}\n${ack!.bodyHtml}`).not.toContain(typed);
      }
      expect(notice!.bodyText).toContain('map pack');
    });

    it('keeps HTML as text: stored as typed, escaped in every email', async () => {
      const attack = {
        ...VALID_CONTACT,
        email: 'mallory@example.com',
        name: 'Mal <img src=x onerror=alert(1)>',
        message: '<script>alert("x")</script>',
      };
      expect((await post('/api/contact', attack)).status).toBe(201);
      const [stored] = await t.database.db.select().from(contactMessages).where(eq(contactMessages.email, 'mallory@example.com'));
      expect(stored!.message).toBe('<script>alert("x")</script>');
      for (const mail of [...(await mailsTo('mallory@example.com')), ...(await mailsTo('inbox@beacongrowth.co'))]) {
        expect(mail.bodyHtml).not.toContain('<script>');
        expect(mail.bodyHtml).not.toContain('<img src=x');
      }
      const notices = await mailsTo('inbox@beacongrowth.co');
      expect(notices.some((m) => m.bodyHtml.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'))).toBe(true);
    });

    it.each([
      ['missing fields', {}, ['name', 'email', 'subject', 'message']],
      ['wrong types', { name: 1, email: true, subject: [], message: {} }, ['name', 'email', 'subject', 'message']],
      ['blank fields', { name: '  ', email: VALID_CONTACT.email, subject: '\t', message: ' ' }, ['name', 'subject', 'message']],
      ['an invalid email', { ...VALID_CONTACT, email: 'ada@' }, ['email']],
      ['an oversized name', { ...VALID_CONTACT, name: 'n'.repeat(101) }, ['name']],
      ['an oversized subject', { ...VALID_CONTACT, subject: 's'.repeat(151) }, ['subject']],
      ['an oversized message', { ...VALID_CONTACT, message: 'm'.repeat(5001) }, ['message']],
      ['a line break in the name (header injection)', { ...VALID_CONTACT, name: 'Ada\r\nBcc: victim@example.com' }, ['name']],
      ['a line break in the subject (header injection)', { ...VALID_CONTACT, subject: 'Hi\nBcc: victim@example.com' }, ['subject']],
      ['a line break in the email (header injection)', { ...VALID_CONTACT, email: 'ada@example.com\r\nBcc: v@example.com' }, ['email']],
    ])('rejects %s with 422 naming each field', async (_label, body, fields) => {
      const before = await t.database.db.select().from(emails);
      const res = await post('/api/contact', body);
      expect(res.status).toBe(422);
      const json = (await res.json()) as ErrorAnswer;
      expect(json.error.code).toBe('validation_failed');
      expect(Object.keys(json.error.fields!).sort()).toEqual([...fields].sort());
      expect(await t.database.db.select().from(emails)).toHaveLength(before.length);
    });

    it('answers a filled honeypot exactly like a real message and stores nothing', async () => {
      const real = await post('/api/contact', { ...VALID_CONTACT, email: 'human@example.com' });
      const res = await post('/api/contact', { ...VALID_CONTACT, email: 'bot@example.com', website: 'http://spam.example' });
      expect(res.status).toBe(real.status);
      expect(await res.json()).toEqual(await real.json());
      expect(res.headers.get('content-type')).toBe(real.headers.get('content-type'));
      expect(await t.database.db.select().from(contactMessages).where(eq(contactMessages.email, 'bot@example.com'))).toHaveLength(0);
      expect(await mailsTo('bot@example.com')).toHaveLength(0);
    });

    it('limits messages per client address and per sender address', async () => {
      for (let i = 0; i < 5; i++) expect((await post('/api/contact', { ...VALID_CONTACT, email: `p${i}@example.com` })).status).toBe(201);
      const perIp = await post('/api/contact', { ...VALID_CONTACT, email: 'p9@example.com' });
      expect(perIp.status).toBe(429);
      expect(await perIp.json()).toMatchObject({ error: { code: 'rate_limited', requestId: expect.any(String) } });
      const retryAfter = Number(perIp.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 600).toBe(true);
      ip += 1;
      for (let i = 0; i < 3; i++) expect((await post('/api/contact', { ...VALID_CONTACT, email: 'same@example.com' })).status).toBe(201);
      ip += 1;
      expect((await post('/api/contact', { ...VALID_CONTACT, email: 'same@example.com' })).status).toBe(429);
    });

    it('rejects non-JSON bodies and broken JSON', async () => {
      expect((await post('/api/contact', 'name=x', { 'content-type': 'text/plain' })).status).toBe(415);
      expect((await post('/api/contact', '{"name": "x"')).status).toBe(400);
    });
  });

  describe('POST /api/leads', () => {
    const freeTool = async () => (await t.content.list('tool')).find((x) => x.accessLevel === 'free' && x.downloadUrl)!;
    const memberTool = async () => (await t.content.list('tool')).find((x) => x.accessLevel !== 'free')!;

    it('stores the lead, emails a download link and returns one that downloads the file', async () => {
      const tool = await freeTool();
      const res = await post('/api/leads', { name: 'Grace', email: 'grace@example.com', phone: '+1 (410) 555-0100', toolId: tool.slug });
      expect(res.status).toBe(201);
      const { downloadUrl } = (await res.json()) as LeadAnswer;
      expect(downloadUrl).toMatch(/\/api\/files\/download\?token=/);
      const [lead] = await t.database.db.select().from(leads).where(eq(leads.email, 'grace@example.com'));
      expect(lead).toMatchObject({ name: 'Grace', phone: '+1 (410) 555-0100', toolSlug: tool.slug });
      const [mail] = await mailsTo('grace@example.com');
      expect(mail!.template).toBe('lead-download');
      expect(mail!.subject).toBe(`Your download: ${tool.title}`);
      expect(mail!.bodyText).toMatch(/\/api\/files\/download\?token=/);

      const file = await t.app.request(new URL(downloadUrl).pathname + new URL(downloadUrl).search);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
      expect(file.headers.get('cache-control')).toBe('private, no-store');
      const expected = await readFile(path.join(CONTENT_DIR, 'files', tool.downloadUrl!));
      expect(Buffer.from(await file.arrayBuffer()).equals(expected)).toBe(true);
    });

    it('lets a returning visitor leave the name out, answering alike for known and unknown addresses', async () => {
      const tool = await freeTool();
      await post('/api/leads', { name: 'Known', email: 'known@example.com', toolId: tool.slug });
      const known = await post('/api/leads', { email: 'known@example.com', toolId: tool.slug });
      const unknown = await post('/api/leads', { email: 'stranger@example.com', toolId: tool.slug });
      // Same status and same shape: the endpoint tells nobody who left their details before.
      expect([known.status, unknown.status]).toEqual([201, 201]);
      expect(Object.keys((await known.json()) as object)).toEqual(Object.keys((await unknown.json()) as object));
      const [lead] = await t.database.db.select().from(leads).where(eq(leads.email, 'stranger@example.com'));
      expect(lead).toMatchObject({ name: null, toolSlug: tool.slug });
    });

    it('answers a filled honeypot like a real request (a working link) but stores and sends nothing', async () => {
      const tool = await freeTool();
      const real = await post('/api/leads', { name: 'Real', email: 'real-lead@example.com', toolId: tool.slug });
      const bot = await post('/api/leads', {
        name: 'Bot',
        email: 'bot-lead@example.com',
        toolId: tool.slug,
        website: 'https://spam.example',
      });
      expect(bot.status).toBe(real.status);
      const [realBody, botBody] = [(await real.json()) as LeadAnswer, (await bot.json()) as LeadAnswer];
      expect(Object.keys(botBody)).toEqual(Object.keys(realBody));
      expect(botBody.downloadUrl).toMatch(/\/api\/files\/download\?token=[\w.-]+$/);
      const file = await t.app.request(new URL(botBody.downloadUrl).pathname + new URL(botBody.downloadUrl).search);
      expect(file.status).toBe(200);
      expect(await t.database.db.select().from(leads).where(eq(leads.email, 'bot-lead@example.com'))).toHaveLength(0);
      expect(await mailsTo('bot-lead@example.com')).toHaveLength(0);
    });

    it('answers an unknown tool with 404 and a members-only tool with 403', async () => {
      const missing = await post('/api/leads', { name: 'A', email: 'a@example.com', toolId: 'no-such-tool' });
      expect(missing.status).toBe(404);
      const gated = await post('/api/leads', { name: 'A', email: 'a@example.com', toolId: (await memberTool()).slug });
      expect(gated.status).toBe(403);
      expect(await gated.json()).toMatchObject({ error: { code: 'forbidden' } });
    });

    it.each([
      ['a missing email and tool', { name: 'A' }, ['email', 'toolId']],
      ['a bad phone', { name: 'A', email: 'a@example.com', phone: 'call me; DROP TABLE', toolId: 'x' }, ['phone']],
      ['a name with a line break', { name: 'A\r\nB', email: 'a@example.com', toolId: 'x' }, ['name']],
      ['an oversized tool id', { name: 'A', email: 'a@example.com', toolId: 't'.repeat(500) }, ['toolId']],
    ])('rejects %s with 422', async (_label, body, fields) => {
      const res = await post('/api/leads', body);
      expect(res.status).toBe(422);
      const json = (await res.json()) as ErrorAnswer;
      expect(Object.keys(json.error.fields!).sort()).toEqual([...fields].sort());
    });

    it('refuses tampered, foreign and escaping download tokens', async () => {
      const tool = await freeTool();
      const { downloadUrl } = (await (
        await post('/api/leads', { name: 'T', email: 't@example.com', toolId: tool.slug })
      ).json()) as LeadAnswer;
      const token = new URL(downloadUrl).searchParams.get('token')!;
      const tampered = `${token.slice(0, -3)}${token.slice(-3) === 'AAA' ? 'BBB' : 'AAA'}`;
      expect((await t.app.request(`/api/files/download?token=${tampered}`)).status).toBe(404);
      expect((await t.app.request('/api/files/download')).status).toBe(404);
      const escaping = await t.services.tokens.sign('download', { key: '../../package.json' }, 60);
      expect((await t.app.request(`/api/files/download?token=${escaping}`)).status).toBe(404);
      const foreign = await t.services.tokens.sign('newsletter-unsubscribe', { key: tool.downloadUrl! });
      expect((await t.app.request(`/api/files/download?token=${foreign}`)).status).toBe(404);
    });
  });
});
