/**
 * Invariant 1 for the newsletter: two issues, one at the premium level and one at the subscriber
 * level, each with a sentinel in its gated part, go to every level and to the list through the real
 * server (Postgres, the embedded mailbox). Every `.eml` the mailbox received and every outbox row is
 * read: each recipient has exactly one file per issue, and a sentinel is in exactly the copies cut at
 * or above its issue's level, nowhere in a copy for a lower level or a list subscriber without an
 * account, whether in the subject, the headers, the HTML or the text. Then the archive (its page,
 * the issue's page, its RSS, the sitemap, the public API) as visitors and members of every level:
 * a sentinel only ever comes from the gated body endpoint, to the levels its issue is for.
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
import { pgAdminUrl, pooledEnv } from '../support/databases.ts';
import { quietLogger } from '../support/fixtures.ts';
import { createTestDatabase, freePort } from '../support/postgres.ts';
import { tempDir } from '../support/temp.ts';

const SENTINEL = 'PREMIUM-ISSUE-SENTINEL-6e0d';
const SUBSCRIBER_SENTINEL = 'SUBSCRIBER-ISSUE-SENTINEL-a37c';
const VISITOR = 'list-reader@leak.test';
const CALLERS = ['anonymous', 'free', 'subscriber', 'premium'] as const;
const RANK = { free: 0, subscriber: 1, premium: 2 } as const;
const demo = (who: string) => `${who}@demo.beacongrowth.co`;

/** The two issues: their subject, level and the sentinel of their gated part. */
const ISSUES = {
  premium: { subject: 'Leak check issue', level: 'premium', sentinel: SENTINEL },
  subscriber: { subject: 'Subscriber leak check', level: 'subscriber', sentinel: SUBSCRIBER_SENTINEL },
} as const;
/** Whether a copy cut at `cut` (null: a list reader without an account) carries an issue at `level` whole. */
const opens = (cut: string | null, level: keyof typeof RANK) => cut !== null && RANK[cut as keyof typeof RANK] >= RANK[level];

describe('newsletter leak check', () => {
  let server: RunningServer;
  let base: string;
  let database: Database;
  let mailbox: string;
  let slug = '';
  const slugs = { premium: '', subscriber: '' };
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
      ...pooledEnv(url),
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
    for (const [key, issue] of Object.entries(ISSUES)) {
      const created = await fetch(`${base}/api/admin/newsletter/issues`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({
          subject: issue.subject,
          previewText: 'What everyone may read about it',
          body: `The public opening of the issue.\n\n<!-- preview -->\n\nThe ${issue.level} part: ${issue.sentinel}.`,
          accessLevel: issue.level,
          audience: ['newsletter', 'free', 'subscriber', 'premium'],
        }),
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const sent = await fetch(`${base}/api/admin/newsletter/issues/${id}/send`, { method: 'POST', headers: admin });
      expect(sent.status).toBe(202);
      slugs[key as keyof typeof ISSUES] = ((await sent.json()) as { issue: { slug: string } }).issue.slug;
    }
    slug = slugs.premium;
    // The server's own worker delivers every copy into the mailbox.
    const delivered = async () =>
      (await database.db.select().from(emails).where(eq(emails.template, 'newsletter-issue'))).every((m) => m.status === 'delivered');
    for (let tries = 0; !(await delivered()); tries++) {
      if (tries > 300) throw new Error('the worker did not deliver the issues within 30 s');
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

  it('sends each recipient exactly one copy of each issue, its gated sentence only at or above the issue level', async () => {
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
    const perCopy = new Map<string, number>();
    let positives = 0;
    for (const file of files) {
      const raw = await readFile(path.join(mailbox, file), 'utf8');
      const mail = await PostalMime.parse(raw);
      const to = mail.to?.[0]?.address ?? '';
      const issue = Object.values(ISSUES).find((i) => (mail.subject ?? '') === i.subject);
      if (!issue) continue;
      expect(cutAt.has(to), to).toBe(true);
      perCopy.set(`${issue.subject} → ${to}`, (perCopy.get(`${issue.subject} → ${to}`) ?? 0) + 1);
      // Decoded parts and headers alike (quoted-printable or base64 would hide it from the raw bytes).
      const everything = [mail.subject, mail.html, mail.text, ...mail.headers.map((h) => `${h.key}: ${h.value}`), raw].join('\n');
      const whole = opens(cutAt.get(to)!, issue.level);
      expect(everything.includes(issue.sentinel), `${issue.subject} to ${to} (cut at ${cutAt.get(to)})`).toBe(whole);
      // No copy carries the other issue's sentinel either.
      for (const other of Object.values(ISSUES)) if (other !== issue) expect(everything).not.toContain(other.sentinel);
      if (whole) {
        expect(mail.html && mail.text && mail.html.includes(issue.sentinel) && mail.text.includes(issue.sentinel)).toBeTruthy();
        positives += 1;
      }
    }
    // Every recipient's copy of each issue is in the mailbox exactly once.
    const expected = Object.values(ISSUES).flatMap((i) => [...cutAt.keys()].map((to) => `${i.subject} → ${to}`));
    expect([...perCopy.keys()].sort()).toEqual(expected.sort());
    expect([...perCopy.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    // Premium copies (premium, editor, admin) of both issues, and the subscriber's copy of its own.
    expect(positives).toBe(7);
  });

  it('keeps the gated sentences out of every outbox row for a lower level', async () => {
    const cutAt = await levels();
    for (const mail of await database.db.select().from(emails)) {
      for (const issue of Object.values(ISSUES)) {
        const whole =
          mail.template === 'newsletter-issue' && mail.subject === issue.subject && opens(cutAt.get(mail.to) ?? null, issue.level);
        expect(JSON.stringify(mail).includes(issue.sentinel), `${mail.subject} to ${mail.to}`).toBe(whole);
      }
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
      [`/newsletter/${slugs.subscriber}`, await get(`/newsletter/${slugs.subscriber}`)],
      ['/newsletter/rss.xml', feed],
      ['/api/newsletter/issues', await get('/api/newsletter/issues')],
    ]) {
      for (const issue of Object.values(ISSUES)) expect(text!.includes(issue.sentinel), `${caller} ${p}`).toBe(false);
    }
    for (const [key, issue] of Object.entries(ISSUES)) {
      const body = await fetch(`${base}/api/newsletter/issues/${slugs[key as keyof typeof ISSUES]}/body`, { headers });
      const entitled = caller !== 'anonymous' && RANK[caller] >= RANK[issue.level];
      expect(body.status, `${caller} ${issue.subject}`).toBe(caller === 'anonymous' ? 401 : entitled ? 200 : 403);
      expect((await body.text()).includes(issue.sentinel)).toBe(entitled);
      expect(body.headers.get('cache-control')).toMatch(/private|no-store/);
    }
  });
});
