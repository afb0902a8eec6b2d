/**
 * Page weight budgets: JavaScript shipped before interaction, gzip. At most 20 KB and no island on
 * home, services (overview and every service), about, FAQ, contact and the legal pages; at most
 * 100 KB on the content lists (events included) and on every prebuilt detail page (its gated
 * island included; an event page's registration island); at most 160 KB on the account pages
 * (/account, /account/support), whose island loads the auth client; the admin dashboard's Support
 * tab is a chunk loaded when it opens; at most 100 KB on the community's pages (the search, a
 * category's threads, a thread: one island each; comments and staff's controls are lazy chunks).
 * Deterministic: measured from the test build's bytes with scripts/bench/page-weight.ts; pages
 * rendered per request (home and the lists) are measured as the real server sends them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../functions/config.ts';
import { startServer, type RunningServer } from '../../functions/main.ts';
import { htmlWeight, kb, pageWeight, type PageWeight } from '../../scripts/bench/page-weight.ts';
import { quietLogger } from '../support/fixtures.ts';
import { migratedDataDir } from '../support/databases.ts';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';

/** Pages rendered per request: no built file, so they are fetched from a server on the test build. */
const ON_DEMAND = new Set(['/', '/blog', '/courses', '/tools', '/market', '/events', '/newsletter', '/account']);
let server: RunningServer | undefined;

beforeAll(async () => {
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: await migratedDataDir('page-weight'),
    DIST_DIR: inject('testEnv').distDir,
    LOG_LEVEL: 'silent',
    EMAIL_WORKER: 'false',
  });
  server = await startServer(config, quietLogger());
});
afterAll(() => server?.close());

/** A page's weight: from its built file, or as served when it renders per request. */
async function weightOf(client: string, page: string): Promise<PageWeight> {
  if (!ON_DEMAND.has(page)) {
    const file = path.join(client, page, 'index.html');
    expect(existsSync(file), `${page} is prebuilt`).toBe(true);
    return pageWeight(client, file);
  }
  const res = await fetch(`${server!.url}${page}`);
  expect(res.status, page).toBe(200);
  return htmlWeight(client, await res.text(), page);
}

const BUDGET = 20 * 1024;
const PAGES = [
  '/',
  '/services',
  '/services/ai-automation',
  '/services/seo-optimization',
  '/services/content-strategy',
  '/services/website-management',
  '/services/social-media',
  '/services/chatbot-development',
  '/about',
  '/faq',
  '/contact',
  '/pricing',
  '/privacy-policy',
  '/terms-of-service',
  '/newsletter',
];

describe('marketing page weight', () => {
  const client = path.join(inject('testEnv').distDir, 'client');

  it.each(PAGES)('%s ships at most 20 KB of gzip JavaScript and no island', async (page) => {
    const weight = await weightOf(client, page);
    expect(weight.islands, `${page} islands`).toBe(0);
    expect(weight.gzipBytes, `${page}: ${kb(weight.gzipBytes)} (${weight.files.join(', ') || 'inline only'})`).toBeLessThanOrEqual(BUDGET);
    // The page's behaviour really ships: an empty measurement would pass any budget.
    expect(weight.gzipBytes, `${page} has its navigation script`).toBeGreaterThan(500);
  });
});

describe('site search weight', () => {
  const client = path.join(inject('testEnv').distDir, 'client');

  it('/search ships one island within 100 KB of gzip JavaScript, and loads the index script only when searching', () => {
    const weight = pageWeight(client, path.join(client, 'search', 'index.html'));
    expect(weight.islands).toBe(1);
    expect(weight.gzipBytes, `/search: ${kb(weight.gzipBytes)} (${weight.files.join(', ')})`).toBeLessThanOrEqual(100 * 1024);
    expect(
      weight.files.some((f) => f.includes('pagefind')),
      'Pagefind is fetched from /pagefind/ at the first search, never bundled',
    ).toBe(false);
  });

  it("the header's search costs a page that does not open it under 5 KB of gzip: its markup and no script of its own", () => {
    const html = readFileSync(path.join(client, 'about', 'index.html'), 'utf8');
    const markup = [/<a[^>]*id="search-button"[\s\S]*?<\/a>/, /<div id="header-search"[\s\S]*?<\/form>\s*<\/div>/].map(
      (re) => re.exec(html)?.[0] ?? '',
    );
    expect(markup.every(Boolean), 'the search button and field are in the header').toBe(true);
    expect(gzipSync(markup.join('')).length).toBeLessThan(5 * 1024);
    // Its behaviour is a few lines of the header's own script (site-header.ts), no chunk or island of its own.
    const weight = pageWeight(client, path.join(client, 'about', 'index.html'));
    expect(weight.islands).toBe(0);
    expect(weight.files.some((f) => /SiteSearch|pagefind/i.test(f))).toBe(false);
  });
});

describe('content page weight', () => {
  const client = path.join(inject('testEnv').distDir, 'client');
  const htmlFile = (page: string) => path.join(client, page, 'index.html');

  it.each(['/blog', '/courses', '/tools', '/market', '/events'])(
    '%s ships its list island within 100 KB of gzip JavaScript',
    async (page) => {
      const weight = await weightOf(client, page);
      expect(weight.islands).toBe(1);
      expect(weight.islandGzipBytes, 'the island (React and the list) is measured').toBeGreaterThan(30 * 1024);
      expect(weight.gzipBytes, `${page}: ${kb(weight.gzipBytes)}`).toBeLessThanOrEqual(100 * 1024);
    },
  );

  it('every prebuilt detail page ships its island within 100 KB of gzip JavaScript', () => {
    const details = ['blog', 'courses', 'tools', 'market', 'events'].flatMap((type) =>
      readdirSync(path.join(client, type), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => `/${type}/${e.name}`),
    );
    expect(details.length).toBeGreaterThanOrEqual(28);
    expect(details.filter((page) => page.startsWith('/events/')).length, 'event pages').toBeGreaterThanOrEqual(4);
    for (const page of details) {
      const weight = pageWeight(client, htmlFile(page));
      // The gated part (article body, course viewer, download, event registration) is one island.
      expect(weight.islands, page).toBe(1);
      expect(weight.islandGzipBytes, `${page}: the island (React and the gated part) is measured`).toBeGreaterThan(30 * 1024);
      expect(weight.gzipBytes, `${page}: ${kb(weight.gzipBytes)} (${weight.files.join(', ')})`).toBeLessThanOrEqual(100 * 1024);
    }
  });
});

describe('newsletter issue page weight', () => {
  const client = path.join(inject('testEnv').distDir, 'client');

  it("an archived issue's page ships its body island within 100 KB of gzip JavaScript", async () => {
    // Sent by the demo admin through the API, as staff would.
    const signIn = await fetch(`${server!.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@demo.beacongrowth.co', password: DEMO_PASSWORD }),
    });
    const headers = {
      authorization: `Bearer ${((await signIn.json()) as { access_token: string }).access_token}`,
      'content-type': 'application/json',
    };
    const created = await fetch(`${server!.url}/api/admin/newsletter/issues`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        subject: 'Weighed issue',
        previewText: '',
        body: 'Open.\n\n<!-- preview -->\n\nGated.',
        accessLevel: 'subscriber',
        audience: ['premium'],
      }),
    });
    const { id } = (await created.json()) as { id: string };
    const sent = await fetch(`${server!.url}/api/admin/newsletter/issues/${id}/send`, { method: 'POST', headers });
    const { slug } = ((await sent.json()) as { issue: { slug: string } }).issue;
    const res = await fetch(`${server!.url}/newsletter/${slug}`);
    expect(res.status).toBe(200);
    const weight = htmlWeight(client, await res.text(), `/newsletter/${slug}`);
    expect(weight.islands).toBe(1);
    expect(weight.islandGzipBytes, 'the island (React and the gated body) is measured').toBeGreaterThan(30 * 1024);
    expect(weight.gzipBytes, kb(weight.gzipBytes)).toBeLessThanOrEqual(100 * 1024);
  });
});

describe('account page weight', () => {
  const client = path.join(inject('testEnv').distDir, 'client');
  /** The account pages load the auth client (supabase-js) with their island: more than a detail page, a budget of their own. */
  const ACCOUNT_BUDGET = 160 * 1024;

  it.each(['/account', '/account/support'])('%s ships its island within 160 KB of gzip JavaScript', async (page) => {
    const weight = await weightOf(client, page);
    expect(weight.islands).toBe(1);
    expect(weight.islandGzipBytes, 'the island (React, the auth client and the page) is measured').toBeGreaterThan(60 * 1024);
    expect(weight.gzipBytes, `${page}: ${kb(weight.gzipBytes)} (${weight.files.join(', ')})`).toBeLessThanOrEqual(ACCOUNT_BUDGET);
  });

  it("loads the admin dashboard's Support tab only when it opens", () => {
    const panel = readdirSync(path.join(client, '_astro')).filter((f) => /^SupportPanel\..+\.js$/.test(f));
    expect(panel, 'the Support tab chunk').toHaveLength(1);
    const admin = pageWeight(client, path.join(client, 'admin', 'index.html'));
    expect(admin.files.map((f) => path.basename(f))).not.toContain(panel[0]);
  });
});

describe('community page weight', () => {
  const client = path.join(inject('testEnv').distDir, 'client');

  it('/community, a category and a thread each ship one island within 100 KB of gzip JavaScript', async () => {
    const threads = (await (await fetch(`${server!.url}/api/community/threads?category=general`)).json()) as { items: { id: string }[] };
    expect(threads.items.length, 'the demo general category has threads').toBeGreaterThan(0);
    for (const page of ['/community', '/community/general', '/community/premium-lounge', `/community/threads/${threads.items[0]!.id}`]) {
      const res = await fetch(`${server!.url}${page}`);
      expect(res.status, page).toBe(200);
      const weight = htmlWeight(client, await res.text(), page);
      expect(weight.islands, page).toBe(1);
      expect(weight.islandGzipBytes, `${page}: the island (React and the community part) is measured`).toBeGreaterThan(30 * 1024);
      expect(weight.gzipBytes, `${page}: ${kb(weight.gzipBytes)} (${weight.files.join(', ')})`).toBeLessThanOrEqual(100 * 1024);
    }
  });

  it("loads comments and staff's controls as chunks no page loads eagerly", () => {
    const chunks = readdirSync(path.join(client, '_astro')).filter((f) => /^(Comments|StaffControls)\..+\.js$/.test(f));
    expect(chunks, 'the comments and staff chunks').toHaveLength(2);
    for (const page of readdirSync(client, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html')))
      for (const chunk of chunks)
        expect(
          pageWeight(client, path.join(client, page)).files.map((f) => path.basename(f)),
          page,
        ).not.toContain(chunk);
  });
});

describe('the admin charting library', () => {
  const client = path.join(inject('testEnv').distDir, 'client');

  it('is loaded eagerly by no page: the admin overview imports it on demand', () => {
    const pages = readdirSync(client, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html'));
    const chart = readdirSync(path.join(client, '_astro')).filter((f) => /^overview-chart\..+\.js$/.test(f));
    expect(chart, 'the chart chunk').toHaveLength(1);
    expect(readFileSync(path.join(client, '_astro', chart[0]!), 'utf8').length, 'uPlot is in it').toBeGreaterThan(20_000);
    for (const page of pages)
      expect(
        pageWeight(client, path.join(client, page)).files.map((f) => path.basename(f)),
        page,
      ).not.toContain(chart[0]);
  });
});

describe('Stripe.js', () => {
  const client = path.join(inject('testEnv').distDir, 'client');

  it('is loaded eagerly by no page: only the checkout helper imports it, on demand', () => {
    const pages = readdirSync(client, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThanOrEqual(40);
    const withStripe = readdirSync(path.join(client, '_astro')).filter(
      (f) => f.endsWith('.js') && readFileSync(path.join(client, '_astro', f), 'utf8').includes('js.stripe.com'),
    );
    expect(withStripe, 'the one chunk that knows Stripe.js').toEqual([expect.stringMatching(/^stripe-checkout\./)]);
    for (const page of pages) {
      const weight = pageWeight(client, path.join(client, page));
      expect(
        weight.files.filter((f) => withStripe.includes(path.basename(f))),
        page,
      ).toEqual([]);
      expect(readFileSync(path.join(client, page), 'utf8'), page).not.toContain('js.stripe.com');
    }
  });
});
