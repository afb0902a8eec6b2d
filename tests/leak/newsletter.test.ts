/**
 * Invariant 1 for the newsletter: an issue at the premium level, whose gated part carries a sentinel,
 * goes to every level and to the list through the real server (Postgres, the embedded mailbox). Every
 * `.eml` the mailbox received and every outbox row is read: the sentinel is in exactly the copies cut
 * at premium (premium members and staff) and nowhere in a copy for a subscriber, a free member or a
 * list subscriber without an account, whether in the subject, the headers, the HTML or the text.
 * Then the archive (its page, the issue's page, its RSS, the sitemap, the public API) as visitors and
 * members of every level: the sentinel only ever comes from the gated body endpoint, to premium.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../functions/config.ts';
import { emails } from '../../functions/email/tables.ts';
import { startServer, type RunningServer } from '../../functions/main.ts';
import { openDatabase, type Database } from '../../functions/platform/db/client.ts';
import { newsletterDeliveries, newsletterSubscribers } from '../../functions/newsletter/tables.ts';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import type { SessionAnswer } from '../support/answers.ts';
import { CONTENT_DIR } from '../support/app.ts';
import { pgAdminUrl } from '../support/databases.ts';
import { quietLogger } from '../support/fixtures.ts';
import { createTestDatabase, freePort } from '../support/postgres.ts';
import { tempDir } from '../support/temp.ts';

const SENTINEL = 'PREMIUM-ISSUE-SENTINEL-6e0d';
const VISITOR = 'list-reader@leak.test';
const CALLERS = ['anonymous', 'free', 'subscriber', 'premium'] as const;
const demo = (who: string) => `${who}@demo.beacongrowth.co`;

describe('newsletter leak check', () => {
  let server: RunningServer;
  let base: string;
  let database: Database;
  let mailbox: string;
  let slug = '';
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    const url = await createTestDatabase(pgAdminUrl(), 'leak_newsletter');
    database = await openDatabase({ kind: 'postgres', url, poolSize: 2 }, quietLogger());
    // The list: a reader without an account, and the free demo member (whose plan has no newsletter).
    await database.db.insert(newsletterSubscribers).values([
      { email: VISITOR, status: 'confirmed' },
      { email: demo('free'), status: 'confirmed' },
    ]);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const dataDir = await tempDir('leak-newsletter');
    mailbox = path.join(dataDir, 'mailbox');
    const config = loadConfig({
      PORT: String(port),
      SITE_URL: base,
      DATABASE_URL: url,
      PAYMENTS: 'test',
      DATA_DIR: dataDir,
      DIST_DIR: inject('testEnv').distDir,
      CONTENT_DIR,
      LOG_LEVEL: 'silent',
      AUTH_SEED_DEMO: 'true',
    });
    server = await startServer(config, quietLogger());
    for (const who of ['free', 'subscriber', 'premium', 'admin']) tokens.set(who, await signIn(demo(who)));

    const admin = { authorization: `Bearer ${tokens.get('admin')}`, 'content-type': 'application/json', origin: base };
    const created = await fetch(`${base}/api/admin/newsletter/issues`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({
        subject: 'Leak check issue',
        previewText: 'What everyone may read about it',
        body: `The public opening of the issue.\n\n<!-- preview -->\n\nThe premium part: ${SENTINEL}.`,
        accessLevel: 'premium',
        audience: ['newsletter', 'free', 'subscriber', 'premium'],
      }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const sent = await fetch(`${base}/api/admin/newsletter/issues/${id}/send`, { method: 'POST', headers: admin });
    expect(sent.status).toBe(202);
    slug = ((await sent.json()) as { issue: { slug: string } }).issue.slug;
    // The server's own worker delivers every copy into the mailbox.
    const delivered = async () =>
      (await database.db.select().from(emails).where(eq(emails.template, 'newsletter-issue'))).every((m) => m.status === 'delivered');
    for (let tries = 0; !(await delivered()); tries++) {
      if (tries > 300) throw new Error('the worker did not deliver the issue within 30 s');
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await database?.close();
  });

  async function signIn(email: string): Promise<string> {
    const res = await fetch(`${base}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: DEMO_PASSWORD }),
    });
    expect(res.status, email).toBe(200);
    return ((await res.json()) as SessionAnswer).access_token;
  }

  /** The level each recipient's copy was cut at (null: a list reader without an account). */
  async function levels(): Promise<Map<string, string | null>> {
    const copies = await database.db.select().from(newsletterDeliveries);
    return new Map(copies.map((c) => [c.address, c.level]));
  }

  it('puts the gated sentence in exactly the copies cut at premium, in every .eml of the mailbox', async () => {
    const cutAt = await levels();
    expect(Object.fromEntries(cutAt)).toEqual({
      [demo('free')]: 'free',
      [demo('subscriber')]: 'subscriber',
      [demo('premium')]: 'premium',
      [demo('editor')]: 'premium',
      [demo('admin')]: 'premium',
      [VISITOR]: null,
    });
    const files = (await readdir(mailbox)).filter((f) => f.endsWith('.eml'));
    const seen = new Map<string, boolean>();
    for (const file of files) {
      const raw = await readFile(path.join(mailbox, file), 'utf8');
      const mail = await PostalMime.parse(raw);
      const to = mail.to?.[0]?.address ?? '';
      if (!cutAt.has(to) || !(mail.subject ?? '').includes('Leak check issue')) continue;
      // Decoded parts and headers alike (quoted-printable or base64 would hide it from the raw bytes).
      const everything = [mail.subject, mail.html, mail.text, ...mail.headers.map((h) => `${h.key}: ${h.value}`), raw].join('\n');
      const carries = everything.includes(SENTINEL);
      expect(carries, `${to} (cut at ${cutAt.get(to)})`).toBe(cutAt.get(to) === 'premium');
      if (carries) expect(mail.html && mail.text && mail.html.includes(SENTINEL) && mail.text.includes(SENTINEL)).toBeTruthy();
      seen.set(to, carries);
    }
    // Every recipient's copy was in the mailbox, once.
    expect([...seen.keys()].sort()).toEqual([...cutAt.keys()].sort());
    expect(files.filter((f) => f.includes('.eml')).length).toBeGreaterThanOrEqual(cutAt.size);
  });

  it('keeps the gated sentence out of every outbox row for a lower level', async () => {
    const cutAt = await levels();
    for (const mail of await database.db.select().from(emails)) {
      const premium = mail.template === 'newsletter-issue' && cutAt.get(mail.to) === 'premium';
      expect(JSON.stringify(mail).includes(SENTINEL), `${mail.template} to ${mail.to}`).toBe(premium);
    }
  });

  it.each(CALLERS)('shows %s the archive, the issue page, its feed and the sitemap without the gated sentence', async (caller) => {
    const headers: Record<string, string> = caller === 'anonymous' ? {} : { authorization: `Bearer ${tokens.get(caller)}` };
    const get = async (p: string) => {
      const res = await fetch(`${base}${p}`, { headers });
      expect(res.status, p).toBe(200);
      return res.text();
    };
    const archive = await get('/newsletter');
    expect(archive).toContain(`/newsletter/${slug}`);
    const page = await get(`/newsletter/${slug}`);
    expect(page).toContain('The public opening of the issue.');
    const feed = await get('/newsletter/rss.xml');
    expect(feed).toContain('The public opening of the issue.');
    expect(await get('/sitemap.xml')).toContain(`/newsletter/${slug}</loc>`);
    for (const [p, text] of [
      ['/newsletter', archive],
      [`/newsletter/${slug}`, page],
      ['/newsletter/rss.xml', feed],
      ['/api/newsletter/issues', await get('/api/newsletter/issues')],
    ]) {
      expect(text!.includes(SENTINEL), `${caller} ${p}`).toBe(false);
    }
    const body = await fetch(`${base}/api/newsletter/issues/${slug}/body`, { headers });
    expect(body.status).toBe(caller === 'anonymous' ? 401 : caller === 'premium' ? 200 : 403);
    expect((await body.text()).includes(SENTINEL)).toBe(caller === 'premium');
    expect(body.headers.get('cache-control')).toMatch(/private|no-store/);
  });
});
