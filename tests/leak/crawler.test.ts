/**
 * The leak crawler (invariant 1, every channel): the real server on the test build and a fresh
 * Postgres database, crawled as anonymous, free, subscriber and premium callers. Each crawl starts at
 * the home page, the sitemap, both feeds, the public API and every gated endpoint, then follows every
 * same-origin reference it finds: links and assets in pages (meta tags included), imports in scripts,
 * URLs in stylesheets, feeds and sitemaps, and every path or signed link in a JSON answer. Direct
 * guesses at private file paths are tried too. One sentinel per gated kind must reach exactly the
 * callers entitled to it, through the channels that carry it, and nobody else (a priced course at the
 * free level reaches none of them: only a member who bought it, checked apart); the outbox is checked
 * last, so no mail ever carried gated text either. Then a CDN goes in front (nginx `proxy_cache`,
 * which keys copies by URL alone, never by Authorization): premium and subscriber members browse every
 * address they reached through it, and a visitor crawled through it right after finds no sentinel,
 * so no member's answer was ever stored.
 *
 * The community is crawled too: before the crawl, members write through the API a premium-lounge
 * thread, a thread of a subscriber-level category and a comment under the premium article, each
 * carrying a sentinel, and a thread a free member started in `general` is moved to the lounge, where
 * the premium member and an editor reply with a sentinel. Every caller starts from the community's
 * pages and API answers too (the categories, each category's threads, each thread, the comments,
 * search); the reply mails the moved thread caused go to its premium follower (who gets the sentinel:
 * the positive control) and never to the free member who started it.
 *
 * The `integration-function` project runs the same crawl through the serverless functions
 * (TEST_APP_THROUGH=function: tests/support/function-server.ts), on a bucket and an SMTP server as a
 * function requires.
 */
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../functions/config.ts';
import { createMdxSource } from '../../functions/content/mdx-source.ts';
import { createContentService } from '../../functions/content/service.ts';
import { openDatabase } from '../../functions/platform/db/client.ts';
import { emails } from '../../functions/email/tables.ts';
import { communityFollows } from '../../functions/community/tables.ts';
import type { Written } from '../../functions/community/service.ts';
import { newsletterDeliveries, newsletterSubscribers } from '../../functions/newsletter/tables.ts';
import { isPrivateKey } from '../../functions/files/service.ts';
import { startServer, type RunningServer } from '../../functions/main.ts';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import { expectNoLevelWithoutAGrant } from '../support/grants.ts';
import { CONTENT_TYPE_INFO, CONTENT_TYPES, type ContentItem, type ContentType } from '#shared/content/registry.ts';
import { CONTENT_DIR } from '../support/app.ts';
import type { Api, Answer, SessionAnswer } from '../support/answers.ts';
import { startFunctionServer, type FunctionServer } from '../support/function-server.ts';
import { startNginx, type RunningNginx } from '../support/nginx.ts';
import { startS3 } from '../support/s3.ts';
import { startTestSmtp, type TestSmtp } from '../support/smtp.ts';
import { pgAdminUrl, pooledEnv } from '../support/databases.ts';
import { createLogger } from '../../functions/platform/logger.ts';
import { WINDOW_MS } from '../../functions/community/notifications/store.ts';
import { makeBlogInput, makeCourseInput, makeEventInput, makeMarketInput, quietLogger, utcLocal } from '../support/fixtures.ts';
import { createTestDatabase, freePort } from '../support/postgres.ts';
import { BUILT_DB_ARTICLE, BUILT_DRAFT_ARTICLE, UNPUBLISHED_SENTINEL } from '../support/site.ts';
import { tempDir } from '../support/temp.ts';
import { filesHolding, readIndexFolder, readServedIndex } from '../support/search-index.ts';

type Caller = 'anonymous' | 'free' | 'subscriber' | 'premium';
const CALLERS: Caller[] = ['anonymous', 'free', 'subscriber', 'premium'];

/** One sentinel per gated kind, and who may read it. */
const SENTINELS = {
  'PREMIUM-SENTINEL-7f3a': 'premium', // premium article body (MDX from git)
  'PREMIUM-DB-SENTINEL-e61b': 'premium', // premium article body (Markdown from the database)
  'SUBSCRIBER-LESSON-SENTINEL-5b21': 'subscriber', // subscriber lesson content
  'PREMIUM-MEDIA-SENTINEL-3c9e': 'premium', // premium lesson media (a protected PDF)
  'PREMIUM-DOWNLOAD-SENTINEL-9d40': 'premium', // premium download (a market file)
  'PRICED-COURSE-SENTINEL-4e8c': 'buyer', // a lesson of a priced course at the free level: sold, never given by a plan
  [UNPUBLISHED_SENTINEL]: 'nobody', // unpublished items: titles, bodies and files, built or written later
  // A premium event's join URL (the upcoming workshop, from git) and recording (the past clinic), and
  // both of a premium event written in the creator tools: only a registered, entitled member gets them,
  // through the events API, and none of the crawling callers registered. The join link of an event
  // starting in about 10 minutes is open while the crawl runs, so only registration keeps it from the
  // premium crawler (a registered member gets it: checked apart, so this check can fail).
  'EVENT-JOIN-SENTINEL-2d7b': 'registrant',
  'EVENT-RECORDING-SENTINEL-8a15': 'registrant',
  'EVENT-DB-SENTINEL-c93f': 'registrant',
  'EVENT-OPEN-JOIN-SENTINEL-5e07': 'registrant',
  // The community, written by members through the API before the crawl: a premium-lounge thread's
  // title and opening post, a thread of a subscriber-level category, a comment under the premium
  // article, and replies in a thread moved from `general` (where a free member started it) to the lounge.
  'COMMUNITY-PREMIUM-SENTINEL-b4e2': 'premium',
  'COMMUNITY-SUBSCRIBER-SENTINEL-71ac': 'subscriber',
  'COMMUNITY-COMMENT-SENTINEL-d05f': 'premium',
  'COMMUNITY-REPLY-SENTINEL-3a96': 'premium',
  // A subscriber newsletter issue that went out (its part below the preview line), written before the crawl.
  'NEWSLETTER-SUBSCRIBER-SENTINEL-2c6d': 'subscriber',
} as const satisfies Record<string, Exclude<Caller, 'anonymous'> | 'buyer' | 'registrant' | 'nobody'>;
type Sentinel = keyof typeof SENTINELS;
/** No crawling caller bought the priced course or registered for an event: its buyer and registrants are members apart. */
const RANK: Record<Caller | 'buyer' | 'registrant' | 'nobody', number> = {
  anonymous: -1,
  free: 0,
  subscriber: 1,
  premium: 2,
  buyer: 3,
  registrant: 3,
  nobody: 4,
};

const DB_ARTICLE = makeBlogInput({
  slug: 'leak-crawler-database-article',
  title: 'Leak Crawler Database Article',
  accessLevel: 'premium',
  content: 'A public opening anyone may read.\n\n<!-- preview -->\n\nThe gated part: PREMIUM-DB-SENTINEL-e61b.',
});

/** A priced course at the free level, from the database: its lessons open to buyers (and staff) only. */
const PRICED_SLUG = 'leak-crawler-priced-free-course';
const PRICED_COURSE = makeCourseInput({
  slug: PRICED_SLUG,
  title: 'Leak Crawler Priced Course',
  accessLevel: 'free',
  price: 39,
  sections: [
    {
      id: 'start',
      title: 'Getting started',
      lessons: [
        {
          id: 'first',
          title: 'First lesson',
          content: 'Only buyers read this: PRICED-COURSE-SENTINEL-4e8c.',
          media: [],
          downloadables: [],
        },
      ],
    },
  ],
});

/** A premium online event from the database, its join URL and recording carrying a sentinel. */
const DB_EVENT_SLUG = 'leak-crawler-database-event';
const DB_EVENT = makeEventInput({
  slug: DB_EVENT_SLUG,
  title: 'Leak Crawler Database Event',
  accessLevel: 'premium',
  capacity: 10,
  joinUrl: 'https://meet.events.example/EVENT-DB-SENTINEL-c93f',
  recordingUrl: 'https://video.events.example/EVENT-DB-SENTINEL-c93f',
  content: 'A public description anyone may read.',
});

/** A premium online event starting in about 10 minutes: its join link is open (from 15 minutes before) throughout the crawl. */
const OPEN_EVENT_SLUG = 'leak-crawler-open-event';
const OPEN_EVENT = makeEventInput({
  slug: OPEN_EVENT_SLUG,
  title: 'Leak Crawler Event Under Way Soon',
  accessLevel: 'premium',
  startsAt: utcLocal(10),
  timeZone: 'UTC',
  durationMinutes: 180,
  joinUrl: 'https://meet.events.example/EVENT-OPEN-JOIN-SENTINEL-5e07',
  content: 'A public description anyone may read.',
});

/** A newsletter issue started from the premium MDX article (its sentinel behind the preview line), sent to every level and the list. */
const ISSUE_ARTICLE = { slug: 'ecommerce-launch-first-90-days', sentinel: 'PREMIUM-SENTINEL-7f3a' } as const;
const ISSUE_SUBJECT = 'Leak crawler newsletter issue';

/** The community's writes before the crawl: a category at the subscriber level (made by an admin), and the thread that moves. */
const SUBSCRIBER_CATEGORY = 'leak-crawler-subscribers';
const MOVED_TITLE = 'Leak crawler: a question that moved to the lounge';
const demo = (who: string) => `${who}@demo.beacongrowth.co`;

const DRAFT_SLUG = {
  blog: 'leak-crawler-unpublished-article',
  course: 'leak-crawler-unpublished-course',
  market: 'leak-crawler-unpublished-download',
} as const;

/** Free items unpublished after they were written (one more was unpublished when the site was built). */
const UNPUBLISHED = {
  blog: makeBlogInput({
    slug: DRAFT_SLUG.blog,
    title: `Unpublished Article ${UNPUBLISHED_SENTINEL}`,
    description: `Gone from the site: ${UNPUBLISHED_SENTINEL}.`,
    accessLevel: 'free',
    content: `Unpublished body ${UNPUBLISHED_SENTINEL}.`,
  }),
  course: makeCourseInput({
    slug: DRAFT_SLUG.course,
    title: `Unpublished Course ${UNPUBLISHED_SENTINEL}`,
    accessLevel: 'free',
  }),
  market: makeMarketInput({
    slug: DRAFT_SLUG.market,
    title: `Unpublished Download ${UNPUBLISHED_SENTINEL}`,
    accessLevel: 'free',
    price: undefined,
    downloadUrl: 'downloads/website-maintenance-checklist.md',
  }),
} as const;

/** What a caller's crawl found. */
interface Crawl {
  /** Sentinel → the URLs that carried it. */
  seen: Map<Sentinel, string[]>;
  /** Answers by kind (HTML pages, assets, API JSON, XML, file downloads), status 200 only. */
  counts: Record<'html' | 'asset' | 'json' | 'xml' | 'file', number>;
  /** Any 5xx, with its URL. */
  failures: string[];
  fetched: number;
  /** Every address fetched, in order. */
  visited: string[];
  /** Answers a CDN in front served from its store (nginx's X-Cache-Status HIT, STALE or UPDATING). */
  fromCache: number;
  /** Answers that carried a sentinel yet let a shared cache store them (neither private nor no-store). */
  storable: string[];
}

/** Whether a shared cache may store this answer, whatever it makes of Vary (some CDNs ignore it). */
const storable = (res: Response) => !/\b(private|no-store)\b/.test(res.headers.get('cache-control') ?? '');

/** Same-origin references in an answer: paths (resolved against `from`) and absolute URLs on one of `origins`. */
function references(text: string, contentType: string, from: URL, origins: string[]): string[] {
  const raw: string[] = [];
  if (contentType.includes('json')) {
    const walk = (v: unknown): void => {
      if (typeof v === 'string') raw.push(v);
      else if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    };
    try {
      walk(JSON.parse(text));
    } catch {
      /* not JSON after all */
    }
  } else if (contentType.includes('html')) {
    for (const m of text.matchAll(/\s[\w:-]+="([^"]*)"/g))
      raw.push(
        ...m[1]!
          .replaceAll('&amp;', '&')
          .split(/,\s*/)
          .map((s) => s.trim().split(/\s+/)[0]!),
      );
  } else if (contentType.includes('xml')) {
    for (const m of text.matchAll(/<(?:loc|link|guid)>([^<]+)</g)) raw.push(m[1]!.replaceAll('&amp;', '&'));
    for (const m of text.matchAll(/\surl="([^"]+)"/g)) raw.push(m[1]!.replaceAll('&amp;', '&'));
  } else if (contentType.includes('javascript')) {
    for (const m of text.matchAll(/["'`]((?:\.\.?|\/_astro)\/[\w./-]+\.(?:js|css|mjs))["'`]/g)) raw.push(m[1]!);
  } else if (contentType.includes('css')) {
    for (const m of text.matchAll(/url\(\s*["']?([^"')]+)["']?\s*\)/g)) raw.push(m[1]!);
  }
  const out: string[] = [];
  for (const ref of raw) {
    if (!ref || ref.startsWith('//') || ref.startsWith('data:') || ref.startsWith('#')) continue;
    if (!(ref.startsWith('/') || ref.startsWith('./') || ref.startsWith('../') || origins.some((o) => ref.startsWith(o)))) continue;
    try {
      const url = new URL(ref, from);
      if (origins.includes(url.origin)) out.push(url.pathname + url.search);
    } catch {
      /* not a URL */
    }
  }
  return out;
}

function kindOf(contentType: string, pathname: string): keyof Crawl['counts'] {
  if (pathname.startsWith('/api/files/')) return 'file';
  if (contentType.includes('html')) return 'html';
  if (contentType.includes('json')) return 'json';
  if (contentType.includes('xml')) return 'xml';
  return 'asset';
}

/** Crawls from `seeds` as one caller, following every same-origin reference once (`siteUrl`'s absolute ones too, when crawling through a CDN). */
async function crawl(base: string, seeds: string[], token: string | undefined, siteUrl = base): Promise<Crawl> {
  const origins = [...new Set([new URL(base).origin, new URL(siteUrl).origin])];
  const result: Crawl = {
    seen: new Map(),
    counts: { html: 0, asset: 0, json: 0, xml: 0, file: 0 },
    failures: [],
    fetched: 0,
    visited: [],
    fromCache: 0,
    storable: [],
  };
  const queued = new Set<string>();
  const queue: string[] = [];
  const enqueue = (p: string) => {
    // Query variants of a page are the same page (list filters): one visit each is enough.
    const key = p.startsWith('/api/') || p.startsWith('/feeds/') ? p : p.split('?')[0]!;
    if (queued.has(key) || queued.size > 4000) return;
    queued.add(key);
    queue.push(key);
  };
  seeds.forEach(enqueue);

  async function visit(p: string) {
    const res = await fetch(`${base}${p}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      redirect: 'manual',
    });
    result.fetched++;
    result.visited.push(p);
    if (['HIT', 'STALE', 'UPDATING'].includes(res.headers.get('x-cache-status') ?? '')) result.fromCache++;
    const location = res.headers.get('location');
    if (location) enqueue(new URL(location, `${base}${p}`).pathname);
    const bytes = Buffer.from(await res.arrayBuffer());
    if (res.status >= 500) result.failures.push(`${res.status} ${p}`);
    // Headers and body alike: a sentinel anywhere in the answer counts.
    const found = sentinelsIn(res, bytes);
    for (const sentinel of found) result.seen.set(sentinel, [...(result.seen.get(sentinel) ?? []), p]);
    if (found.length && storable(res)) result.storable.push(p);
    const contentType = res.headers.get('content-type') ?? '';
    if (res.status === 200) result.counts[kindOf(contentType, p)]++;
    if (res.status < 400) references(bytes.toString('utf8'), contentType, new URL(`${base}${p}`), origins).forEach(enqueue);
  }

  // A few requests at a time: the server shares two cores with the test runner.
  let active = 0;
  await new Promise<void>((done) => {
    const pump = () => {
      while (active < 6 && queue.length) {
        const p = queue.shift()!;
        active++;
        visit(p)
          .catch((err: unknown) => result.failures.push(`${p}: ${String(err)}`))
          .finally(() => {
            active--;
            pump();
          });
      }
      if (active === 0) done();
    };
    pump();
  });
  return result;
}

/** The sentinels in an answer, headers and body alike (a search snippet's highlight tags, which split a sentinel's words, taken out). */
function sentinelsIn(res: Response, bytes: Buffer): Sentinel[] {
  const text = `${[...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${bytes.toString('latin1')}`.replace(/<\/?mark>/g, '');
  return (Object.keys(SENTINELS) as Sentinel[]).filter((s) => text.includes(s));
}

/** Fetches each address once as one caller, following nothing: a member browsing what they reached. */
async function browse(base: string, paths: string[], token: string): Promise<Map<Sentinel, string[]>> {
  const seen = new Map<Sentinel, string[]>();
  const queue = [...paths];
  const worker = async () => {
    for (let p = queue.shift(); p !== undefined; p = queue.shift()) {
      const res = await fetch(`${base}${p}`, { headers: { authorization: `Bearer ${token}` }, redirect: 'manual' });
      for (const sentinel of sentinelsIn(res, Buffer.from(await res.arrayBuffer()))) seen.set(sentinel, [...(seen.get(sentinel) ?? []), p]);
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  return seen;
}

/** Every public and gated API answer and a guess at every private file's path, built from the content itself. */
function gatedSeeds(items: ContentItem[]): string[] {
  const seeds: string[] = ['/api/users/me', '/api/users/me/progress', '/api/users/me/feed', '/api/users/me/export', '/api/events'];
  const guesses = (key: string) =>
    isPrivateKey(key)
      ? [`/${key}`, `/files/${key}`, `/content/files/${key}`, `/api/files/${key}`, `/${path.basename(key)}`, `/media/${path.basename(key)}`]
      : [];
  for (const item of items) {
    const segment = CONTENT_TYPE_INFO[item.type].apiSegment;
    seeds.push(`/api/public/${segment}/${item.slug}`);
    if (item.type === 'blog') seeds.push(`/api/content/blogs/${item.slug}/body`);
    if (item.type === 'tool' || item.type === 'market') {
      seeds.push(`/api/content/${segment}/${item.slug}/download`);
      if (item.downloadUrl) seeds.push(...guesses(item.downloadUrl));
    }
    if (item.type === 'event')
      seeds.push(
        `/events/${item.slug}.ics`,
        `/api/events/${item.slug}/join`,
        `/api/events/${item.slug}/recording`,
        `/api/events/${item.slug}/registration`,
      );
    if (item.type === 'course') {
      seeds.push(`/api/content/courses/${item.slug}/progress`);
      for (const lesson of item.sections.flatMap((s) => s.lessons)) {
        seeds.push(`/api/content/courses/${item.slug}/lessons/${lesson.id}`);
        lesson.downloadables.forEach((d, i) => {
          seeds.push(`/api/content/courses/${item.slug}/lessons/${lesson.id}/downloads/${i}`, ...guesses(d.url));
        });
        for (const media of lesson.media) seeds.push(...guesses(media.url));
      }
    }
  }
  return seeds;
}

/** Crawled through the serverless functions instead of the Node server (the `integration-function` project). */
const THROUGH_FUNCTION = process.env.TEST_APP_THROUGH === 'function';

describe(THROUGH_FUNCTION ? 'leak crawler, through the serverless functions' : 'leak crawler', () => {
  let server: RunningServer | FunctionServer;
  let smtp: TestSmtp | undefined;
  let s3: Awaited<ReturnType<typeof startS3>> | undefined;
  let base: string;
  let databaseUrl: string;
  let itemCount = 0;
  const crawls = new Map<Caller, Crawl>();
  let cdn: RunningNginx | undefined;
  /** Through the CDN: what each member's browsing carried, then the visitor's crawl. */
  const browsedThroughCdn = new Map<'premium' | 'subscriber', Map<Sentinel, string[]>>();
  let visitorThroughCdn: Crawl;
  /** The community's threads written before the crawl, and the addresses every crawl starts from there. */
  const threads = { lounge: '', subscribers: '', moved: '', comments: '' };
  let communitySeeds: string[] = [];
  const serverWarnings: string[] = [];

  beforeAll(async () => {
    // A fresh database holding the database article the build listed and a premium Markdown article.
    databaseUrl = await createTestDatabase(pgAdminUrl(), 'leak_crawler');
    // The server's warnings are kept, so a set-up that times out can say what went wrong.
    const logger = createLogger('warn', { write: (line: string) => void serverWarnings.push(line.slice(0, 1500)) });
    const database = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 2 }, logger);
    let items: ContentItem[];
    let published = 0;
    try {
      const content = createContentService({ db: database.db, mdx: await createMdxSource(CONTENT_DIR), logger });
      await content.create('blog', BUILT_DB_ARTICLE);
      await content.create('blog', DB_ARTICLE);
      await content.create('course', PRICED_COURSE);
      await content.create('event', DB_EVENT);
      await content.create('event', OPEN_EVENT);
      // Written published and listed (so every address they had is crawled), then unpublished.
      const drafts = [
        await content.create('blog', BUILT_DRAFT_ARTICLE),
        ...(await Promise.all(Object.entries(UNPUBLISHED).map(([type, input]) => content.create(type as ContentType, input)))),
      ];
      items = (await Promise.all(CONTENT_TYPES.map((type) => content.list(type)))).flat();
      for (const draft of drafts) await content.update(draft.type, draft.id, { published: false });
      published = items.length - drafts.length;
    } finally {
      await database.close();
    }

    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env = {
      PORT: String(port),
      SITE_URL: base,
      ...pooledEnv(databaseUrl),
      PAYMENTS: 'test',
      DATA_DIR: await tempDir('leak-crawler'),
      DIST_DIR: inject('testEnv').distDir,
      LOG_LEVEL: 'silent',
      EMAIL_WORKER: 'false',
      AUTH_SEED_DEMO: 'true',
      AUTH_AUTOCONFIRM: 'true',
      // The community's reply mails: a round every second, so the set-up waits for one.
      COMMUNITY_MAIL_ROUND_SECONDS: '1',
    };
    if (THROUGH_FUNCTION) {
      // The same crawl through the serverless functions: the handler for every request, the scheduled
      // round every second, and the outside services a function requires.
      [smtp, s3] = await Promise.all([startTestSmtp(), startS3('leak-crawler')]);
      server = await startFunctionServer(
        {
          ...env,
          SMTP_URL: smtp.url,
          S3_BUCKET: s3.bucket,
          S3_ENDPOINT: s3.endpoint,
          S3_ACCESS_KEY_ID: 'S3RVER',
          S3_SECRET_ACCESS_KEY: 'S3RVER',
        },
        port,
      );
    } else server = await startServer(loadConfig(env), logger);
    communitySeeds = await writeCommunity();

    itemCount = published;
    const seeds = [
      '/',
      '/sitemap.xml',
      '/sitemap-index.xml',
      '/sitemap-0.xml',
      '/robots.txt',
      '/rss.xml',
      '/manifest.webmanifest',
      '/api/files/download?token=not-a-token',
      ...CONTENT_TYPES.map((type) => `/api/public/${CONTENT_TYPE_INFO[type].apiSegment}`),
      ...gatedSeeds(items),
      ...communitySeeds,
      // The site search's server part, asked for every sentinel: it must cut each at the caller's level.
      ...Object.keys(SENTINELS).map((sentinel) => `/api/search?q=${encodeURIComponent(sentinel)}`),
    ];
    const tokens = new Map<Caller, string>();
    for (const caller of CALLERS) {
      const token = caller === 'anonymous' ? undefined : await signIn(`${caller}@demo.beacongrowth.co`);
      if (token) tokens.set(caller, token);
      crawls.set(caller, await crawl(base, seeds, token));
    }

    // A CDN in front: members first, then a visitor on the same addresses.
    cdn = await startNginx({ upstreams: [`127.0.0.1:${port}`], cache: true });
    for (const caller of ['premium', 'subscriber'] as const)
      browsedThroughCdn.set(caller, await browse(cdn.url, crawls.get(caller)!.visited, tokens.get(caller)!));
    visitorThroughCdn = await crawl(cdn.url, seeds, undefined, base);
  }, 300_000);
  afterAll(async () => {
    await cdn?.stop();
    await server?.close();
    await Promise.all([smtp?.close(), s3?.close()]);
  });

  /** A new member (sign-up confirms at once here), signed in. */
  async function signUp(email: string): Promise<string> {
    const res = await fetch(`${base}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: DEMO_PASSWORD }),
    });
    expect(res.status, email).toBe(200);
    return signIn(email);
  }

  async function signIn(email: string): Promise<string> {
    const res = await fetch(`${base}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: DEMO_PASSWORD }),
    });
    expect(res.status, email).toBe(200);
    return ((await res.json()) as SessionAnswer).access_token;
  }

  /**
   * The community's writes, through the API as members and staff make them (see the header), then
   * a wait for the reply mails' round to deal with the moved thread's followers. Answers the
   * community's addresses every crawl starts from: its pages and API answers, each thread's included
   * (no page links a gated thread: its titles only ever reach a member's island).
   */
  async function writeCommunity(): Promise<string[]> {
    const [premium, subscriber, free, editor, admin] = await Promise.all(
      ['premium', 'subscriber', 'free', 'editor', 'admin'].map((who) => signIn(demo(who))),
    );
    const write = async <T>(token: string, p: string, body: unknown, status = 201): Promise<T> => {
      const res = await fetch(`${base}${p}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', origin: base },
        body: JSON.stringify(body),
      });
      expect(res.status, `${p}: ${await res.clone().text()}`).toBe(status);
      return (await res.json()) as T;
    };
    await write(admin!, '/api/admin/community/categories', {
      slug: SUBSCRIBER_CATEGORY,
      name: 'Leak crawler subscribers',
      accessLevel: 'subscriber',
      position: 3,
    });
    // A subscriber issue gone out to free members who turned the newsletter on (nobody here: no copy carries it).
    const issue = await write<{ id: string }>(admin!, '/api/admin/newsletter/issues', {
      subject: 'Leak crawler subscriber issue',
      previewText: 'For the crawl',
      body: 'Anyone reads this opening.\n\n<!-- preview -->\n\nSubscribers read NEWSLETTER-SUBSCRIBER-SENTINEL-2c6d.',
      accessLevel: 'subscriber',
      audience: ['free'],
    });
    const { slug: issueSlug } = (await write<{ issue: { slug: string } }>(admin!, `/api/admin/newsletter/issues/${issue.id}/send`, {}, 202))
      .issue;
    const lounge = await write<Written>(premium!, '/api/community/threads', {
      category: 'premium-lounge',
      title: 'Lounge talk COMMUNITY-PREMIUM-SENTINEL-b4e2',
      body: 'Only premium members read this: COMMUNITY-PREMIUM-SENTINEL-b4e2.',
    });
    const subscribers = await write<Written>(subscriber!, '/api/community/threads', {
      category: SUBSCRIBER_CATEGORY,
      title: 'Subscribers talk COMMUNITY-SUBSCRIBER-SENTINEL-71ac',
      body: 'Subscribers and up read this: COMMUNITY-SUBSCRIBER-SENTINEL-71ac.',
    });
    const comment = await write<Written & { threadId: string }>(premium!, `/api/community/comments/blogs/${ISSUE_ARTICLE.slug}`, {
      body: 'A premium comment: COMMUNITY-COMMENT-SENTINEL-d05f.',
    });
    // Started in general by the free member (who follows it from then), moved to the lounge by an
    // editor, then replied to there: the replies are premium, and the free member may not read them.
    const moved = await write<Written>(free!, '/api/community/threads', {
      category: 'general',
      title: MOVED_TITLE,
      body: 'Where should I start with local search?',
    });
    await write(editor!, `/api/admin/community/threads/${moved.id}`, { action: 'move', category: 'premium-lounge' }, 200);
    const replies = [
      await write<Written>(premium!, `/api/community/threads/${moved.id}/replies`, {
        body: 'In the lounge now: COMMUNITY-REPLY-SENTINEL-3a96.',
      }),
      await write<Written>(editor!, `/api/community/threads/${moved.id}/replies`, {
        body: 'A consultant answers: COMMUNITY-REPLY-SENTINEL-3a96.',
      }),
    ];
    for (const written of [lounge, subscribers, comment, moved, ...replies]) expect(written.status).toBe('visible');
    Object.assign(threads, { lounge: lounge.id, subscribers: subscribers.id, moved: moved.id, comments: comment.threadId });

    // The round (every second here) has dealt with every follower of the moved thread: the premium
    // member's mail queued, and no row left due. The free member's row is settled, or (when a round
    // came between the two replies, as on a busy machine) it was dealt with then and the editor's
    // reply marked it again inside its 15-minute window, so no round takes it before the crawl.
    const database = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 1 }, quietLogger());
    try {
      const settled = async () => {
        const follows = await database.db.select().from(communityFollows).where(eq(communityFollows.threadId, moved.id));
        const mailed = await database.db
          .select({ id: emails.id })
          .from(emails)
          .where(and(eq(emails.template, 'community-replies'), eq(emails.to, demo('premium'))));
        const windowStart = Date.now() - WINDOW_MS;
        const notDue = (f: (typeof follows)[number]) =>
          f.pendingSince === null || (f.notifiedAt !== null && f.notifiedAt.getTime() > windowStart);
        return follows.length === 3 && follows.every(notDue) && mailed.length > 0;
      };
      for (let tries = 0; !(await settled()); tries++) {
        // Generous: the full suite builds bundles and runs initdb beside this file on two cores.
        if (tries > 1200) {
          const follows = await database.db.select().from(communityFollows).where(eq(communityFollows.threadId, moved.id));
          const mails = await database.db.select({ to: emails.to, template: emails.template }).from(emails);
          throw new Error(
            `the reply mails' round did not deal with the moved thread within 120 s: ${JSON.stringify({ follows, mails, serverWarnings: serverWarnings.slice(-5) })}`,
          );
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await database.close();
    }

    const categories = ['general', 'premium-lounge', SUBSCRIBER_CATEGORY];
    return [
      '/community',
      ...categories.map((c) => `/community/${c}`),
      '/api/community/categories',
      ...categories.map((c) => `/api/community/threads?category=${c}`),
      ...Object.values(threads).flatMap((id) => [`/community/threads/${id}`, `/api/community/threads/${id}`]),
      `/api/community/comments/blogs/${ISSUE_ARTICLE.slug}`,
      '/api/community/search?q=sentinel',
      '/api/community/settings',
      `/newsletter/${issueSlug}`,
      `/api/newsletter/issues/${issueSlug}/body`,
    ];
  }

  it('reaches every kind of answer, with no server error anywhere', () => {
    for (const [caller, result] of crawls) {
      expect(result.failures, caller).toEqual([]);
      expect(result.counts.html, `${caller} pages`).toBeGreaterThanOrEqual(50);
      expect(result.counts.asset, `${caller} assets`).toBeGreaterThanOrEqual(30);
      expect(result.counts.xml, `${caller} feeds and sitemaps`).toBeGreaterThanOrEqual(2);
      expect(result.counts.json, `${caller} API answers`).toBeGreaterThanOrEqual(itemCount + CONTENT_TYPES.length);
    }
    // Members open signed links (downloads, lesson media and files) and their private feed.
    expect(crawls.get('anonymous')!.counts.file).toBe(0);
    expect(crawls.get('free')!.counts.file).toBeGreaterThanOrEqual(3);
    expect(crawls.get('premium')!.counts.file).toBeGreaterThan(crawls.get('free')!.counts.file);
    expect(crawls.get('premium')!.counts.xml).toBeGreaterThan(crawls.get('anonymous')!.counts.xml);
    expect(crawls.get('premium')!.counts.json).toBeGreaterThan(crawls.get('free')!.counts.json);
  });

  it.each(CALLERS)('shows %s exactly the sentinels of their level', (caller) => {
    const { seen } = crawls.get(caller)!;
    const entitled = (Object.keys(SENTINELS) as Sentinel[]).filter((s) => RANK[caller] >= RANK[SENTINELS[s]]);
    expect([...seen.keys()].sort(), JSON.stringify(Object.fromEntries(seen))).toEqual(entitled.sort());
  });

  it('shows a visitor no gated text through a CDN right after members browsed the same addresses', () => {
    // The members' gated answers passed through the cache (so a stored one would be found)...
    expect([...browsedThroughCdn.get('premium')!.keys()]).toEqual(
      expect.arrayContaining(['PREMIUM-SENTINEL-7f3a', 'PREMIUM-DB-SENTINEL-e61b']),
    );
    expect([...browsedThroughCdn.get('subscriber')!.keys()]).toContain('SUBSCRIBER-LESSON-SENTINEL-5b21');
    // ...the cache served the visitor what is the same for everyone...
    const visitor = visitorThroughCdn;
    expect(visitor.failures).toEqual([]);
    expect(visitor.counts.html, 'pages').toBeGreaterThanOrEqual(50);
    expect(visitor.fromCache, `${visitor.fromCache} of ${visitor.fetched} from the cache`).toBeGreaterThanOrEqual(visitor.counts.html);
    // ...and never a member's answer.
    expect(Object.fromEntries(visitor.seen)).toEqual({});
    // Nor would a CDN that ignores Vary: every answer that carried gated text forbade storing it.
    for (const [caller, result] of crawls) expect(result.storable, caller).toEqual([]);
  });

  it('carries each sentinel only through the gated channels (and the server search, to its level)', () => {
    const premium = crawls.get('premium')!.seen;
    const channel = (p: string) =>
      p
        .split('?')[0]!
        .split('/')
        .slice(0, p.startsWith('/api/') ? 3 : 2)
        .join('/');
    // The site search's server part carries the gated text it matched (its snippet) to whoever may read it.
    const searchable = [
      'PREMIUM-SENTINEL-7f3a',
      'PREMIUM-DB-SENTINEL-e61b',
      'SUBSCRIBER-LESSON-SENTINEL-5b21',
      'COMMUNITY-PREMIUM-SENTINEL-b4e2',
      'COMMUNITY-SUBSCRIBER-SENTINEL-71ac',
      'NEWSLETTER-SUBSCRIBER-SENTINEL-2c6d',
    ] as const;
    for (const s of searchable) expect(premium.get(s)!.map(channel), s).toContain('/api/search');
    const channels = (s: Sentinel) =>
      new Set(
        premium
          .get(s)!
          .map(channel)
          .filter((c) => c !== '/api/search'),
      );
    // Files, comments and unpublished items never come from it.
    for (const s of ['PREMIUM-MEDIA-SENTINEL-3c9e', 'PREMIUM-DOWNLOAD-SENTINEL-9d40', 'COMMUNITY-COMMENT-SENTINEL-d05f'] as const)
      expect(premium.get(s)!.map(channel), s).not.toContain('/api/search');
    // Bodies come from the body endpoint and the member's private feed; files only through signed links.
    for (const s of ['PREMIUM-SENTINEL-7f3a', 'PREMIUM-DB-SENTINEL-e61b'] as const) {
      expect(channels(s), s).toEqual(new Set(['/api/content', '/feeds']));
    }
    expect(channels('PREMIUM-MEDIA-SENTINEL-3c9e')).toEqual(new Set(['/api/files']));
    expect(channels('PREMIUM-DOWNLOAD-SENTINEL-9d40')).toEqual(new Set(['/api/files']));
    expect(channels('SUBSCRIBER-LESSON-SENTINEL-5b21')).toEqual(new Set(['/api/content']));
    // The community's text only from its API, and its author's own data export (the premium member wrote these).
    for (const s of ['COMMUNITY-PREMIUM-SENTINEL-b4e2', 'COMMUNITY-COMMENT-SENTINEL-d05f', 'COMMUNITY-REPLY-SENTINEL-3a96'] as const)
      expect(channels(s), s).toEqual(new Set(['/api/community', '/api/users']));
    expect(channels('COMMUNITY-SUBSCRIBER-SENTINEL-71ac')).toEqual(new Set(['/api/community']));
    // The issue's gated part only from its body endpoint.
    expect(channels('NEWSLETTER-SUBSCRIBER-SENTINEL-2c6d')).toEqual(new Set(['/api/newsletter']));
  });

  it('keeps every sentinel out of the public search index, as served (through the CDN too) and as built', async () => {
    const served = await readServedIndex(base);
    // The index holds what was written at run time (so finding nothing below means something).
    expect(filesHolding(served, 'A public opening anyone may read.').length).toBeGreaterThan(0);
    expect(served.pages.some((p) => p.url.startsWith('/community/threads/'))).toBe(true);
    const built = await readIndexFolder(path.join(inject('testEnv').distDir, 'client', 'pagefind'));
    expect(built.pages.length).toBeGreaterThan(40);
    const throughCdn = await readServedIndex(cdn!.url);
    for (const [where, index] of [
      ['served', served],
      ['through the CDN', throughCdn],
      ['built', built],
    ] as const) {
      for (const sentinel of Object.keys(SENTINELS)) {
        // The sentinel as written (fragments keep text) and its last part (the word chunks keep words).
        expect(filesHolding(index, sentinel), `${sentinel} ${where}`).toEqual([]);
        expect(filesHolding(index, sentinel.split('-').at(-1)!), `${sentinel} ${where}`).toEqual([]);
      }
    }
  });

  it("crawls the community's pages and API as every caller, and its gated threads reach members at their level through the API", () => {
    for (const [caller, result] of crawls) {
      const visited = new Set(result.visited);
      for (const p of communitySeeds) expect(visited.has(p.startsWith('/api/') ? p : p.split('?')[0]!), `${caller} ${p}`).toBe(true);
      // The demo threads of general, linked from its page: a visitor reads them in the HTML.
      expect(result.visited.filter((p) => /^\/community\/threads\/[0-9a-f-]{36}$/.test(p)).length, caller).toBeGreaterThan(
        Object.keys(threads).length,
      );
    }
    // The positive controls, by address: each thread's own answer carries its sentinel to the level it is for.
    const at = (caller: Caller, s: Sentinel) => crawls.get(caller)!.seen.get(s) ?? [];
    expect(at('premium', 'COMMUNITY-PREMIUM-SENTINEL-b4e2')).toContain(`/api/community/threads/${threads.lounge}`);
    expect(at('premium', 'COMMUNITY-PREMIUM-SENTINEL-b4e2')).toContain('/api/community/threads?category=premium-lounge');
    expect(at('premium', 'COMMUNITY-COMMENT-SENTINEL-d05f')).toContain(`/api/community/comments/blogs/${ISSUE_ARTICLE.slug}`);
    expect(at('premium', 'COMMUNITY-REPLY-SENTINEL-3a96')).toContain(`/api/community/threads/${threads.moved}`);
    for (const caller of ['subscriber', 'premium'] as const)
      expect(at(caller, 'COMMUNITY-SUBSCRIBER-SENTINEL-71ac'), caller).toContain(`/api/community/threads/${threads.subscribers}`);
  });

  it("mails the moved thread's replies to its premium follower, sentinel and all, and nothing to the free member who started it", async () => {
    const database = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 1 }, quietLogger());
    try {
      const mails = (await database.db.select().from(emails)).filter((m) => m.template === 'community-replies');
      const to = (who: string) => mails.filter((m) => m.to === demo(who));
      // The positive control: the premium follower's one mail lists the editor's reply.
      expect(to('premium')).toHaveLength(1);
      expect(Object.keys(SENTINELS).filter((s) => JSON.stringify(to('premium')[0]).includes(s))).toEqual(['COMMUNITY-REPLY-SENTINEL-3a96']);
      // The free member follows the thread and the round dealt with their row (the set-up waited): no mail at all.
      expect(to('free')).toEqual([]);
      expect(mails.map((m) => m.to)).toEqual([demo('premium')]);
    } finally {
      await database.close();
    }
  });

  it("gives the priced course's lesson to a member who bought it, through the lesson endpoint only", async () => {
    const lesson = `/api/content/courses/${PRICED_SLUG}/lessons/first`;
    const member = await signUp(`priced-buyer-${Date.now()}@leak.test`);
    const get = (p: string) => fetch(`${base}${p}`, { headers: { authorization: `Bearer ${member}` } });
    expect((await get(lesson)).status).toBe(403);
    // Bought through the test checkout, as a member would.
    const post = (p: string, body: unknown, token?: string) =>
      fetch(`${base}${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    const created = await post(
      '/api/payments/stripe/create-session',
      {
        item: { type: 'course', slug: PRICED_SLUG },
        successUrl: '/payment/confirmation?session_id={CHECKOUT_SESSION_ID}',
        cancelUrl: `/courses/${PRICED_SLUG}`,
      },
      member,
    );
    expect(created.status, await created.clone().text()).toBe(200);
    const { sessionId } = (await created.json()) as Answer<Api['payments']['stripe']['create-session']['$post']>;
    const paid = await post(`/api/payments/test/checkout/${sessionId}/pay`, {
      cardNumber: '4242424242424242',
      expiry: '12/34',
      cvc: '123',
    });
    expect(paid.status).toBe(200);
    expect((await post('/api/payments/stripe/confirm', { sessionId }, member)).status).toBe(200);
    const res = await get(lesson);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('PRICED-COURSE-SENTINEL-4e8c');
    // Nowhere else: not the course page nor its public answer.
    for (const p of [`/courses/${PRICED_SLUG}`, `/api/public/courses/${PRICED_SLUG}`]) {
      expect(await (await get(p)).text(), p).not.toContain('PRICED-COURSE-SENTINEL-4e8c');
    }
  });

  it("gives an event's join link and recording to a registered premium member, through the events API only", async () => {
    const token = await signIn('premium@demo.beacongrowth.co');
    const call = (p: string, method = 'GET') =>
      fetch(`${base}${p}`, { method, headers: { authorization: `Bearer ${token}`, origin: base }, redirect: 'manual' });
    const join = `/api/events/${OPEN_EVENT_SLUG}/join`;
    // The crawl's answer: the link is open, but this member holds no seat.
    expect((await call(join)).status).toBe(403);
    for (const slug of [OPEN_EVENT_SLUG, DB_EVENT_SLUG]) expect((await call(`/api/events/${slug}/registration`, 'POST')).status).toBe(200);
    const opened = await call(join);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain('EVENT-OPEN-JOIN-SENTINEL-5e07');
    expect(await (await call(`/api/events/${DB_EVENT_SLUG}/recording`)).text()).toContain('EVENT-DB-SENTINEL-c93f');
    // Registered, the member's other answers still carry neither (their confirmations are checked with the mails).
    for (const p of [
      '/api/events',
      `/events/${OPEN_EVENT_SLUG}`,
      `/events/${OPEN_EVENT_SLUG}.ics`,
      `/api/events/${OPEN_EVENT_SLUG}/registration`,
    ]) {
      const text = await (await call(p)).text();
      expect(text, p).not.toMatch(/EVENT-OPEN-JOIN-SENTINEL-5e07|EVENT-DB-SENTINEL-c93f/);
    }
  });

  it('answers every address of an unpublished item with 404, whoever asks', async () => {
    const token = await signIn('premium@demo.beacongrowth.co');
    const paths = [
      `/blog/${BUILT_DRAFT_ARTICLE.slug}`,
      `/blog/${DRAFT_SLUG.blog}`,
      `/api/public/blogs/${DRAFT_SLUG.blog}`,
      `/api/content/blogs/${DRAFT_SLUG.blog}/body`,
      `/courses/${DRAFT_SLUG.course}`,
      `/api/content/courses/${DRAFT_SLUG.course}/lessons/first`,
      `/market/${DRAFT_SLUG.market}`,
      `/api/content/market/${DRAFT_SLUG.market}/download`,
    ];
    for (const p of paths) {
      const res = await fetch(`${base}${p}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, p).toBe(404);
    }
  });

  it("never put gated text in a mail, the registered member's confirmations and their calendar files included", async () => {
    const database = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 1 }, quietLogger());
    try {
      const mails = await database.db.select().from(emails);
      expect(mails.filter((m) => m.template === 'event-registered' && m.attachments.length === 1)).toHaveLength(2);
      for (const mail of mails) {
        // The newsletter issue's copies are checked per recipient level in their own test, the reply mails in theirs.
        if (mail.subject === ISSUE_SUBJECT || mail.template === 'community-replies') continue;
        for (const sentinel of Object.keys(SENTINELS)) expect(JSON.stringify(mail)).not.toContain(sentinel);
      }
    } finally {
      await database.close();
    }
  });

  it('left no member at a level without a grant behind it (a payment, a gift, a trial, an offer or staff), whatever the crawl sent', async () => {
    const database = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 1 }, quietLogger());
    try {
      await expectNoLevelWithoutAGrant(database.db);
    } finally {
      await database.close();
    }
  });

  it('cuts a newsletter issue started from the premium article at each level: its sentinel in the premium copies only', async () => {
    const admin = {
      authorization: `Bearer ${await signIn('admin@demo.beacongrowth.co')}`,
      'content-type': 'application/json',
      origin: base,
    };
    const draft = await fetch(`${base}/api/admin/newsletter/articles/${ISSUE_ARTICLE.slug}`, { headers: admin });
    expect(draft.status).toBe(200);
    const article = (await draft.json()) as { previewText: string; body: string; accessLevel: string };
    expect(article.accessLevel).toBe('premium');
    const database = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 1 }, quietLogger());
    try {
      // The list: a reader without an account, and the free member (whose plan has no newsletter).
      await database.db
        .insert(newsletterSubscribers)
        .values(['list-reader@crawler.test', 'free@demo.beacongrowth.co'].map((email) => ({ email, status: 'confirmed' as const })));
      const audience = ['newsletter', 'free', 'subscriber', 'premium'];
      const created = await fetch(`${base}/api/admin/newsletter/issues`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ ...article, subject: ISSUE_SUBJECT, audience }),
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const { id } = (await created.json()) as { id: string };
      expect((await fetch(`${base}/api/admin/newsletter/issues/${id}/send`, { method: 'POST', headers: admin })).status).toBe(202);
      const cutAt = new Map(
        (await database.db.select().from(newsletterDeliveries).where(eq(newsletterDeliveries.issueId, id))).map((c) => [
          c.address,
          c.level,
        ]),
      );
      expect(new Set(cutAt.values())).toEqual(new Set([null, 'free', 'subscriber', 'premium']));
      const copies = (await database.db.select().from(emails)).filter((m) => m.subject === ISSUE_SUBJECT);
      expect(copies.map((m) => m.to).sort()).toEqual([...cutAt.keys()].sort());
      for (const copy of copies) {
        const carried = Object.keys(SENTINELS).filter((sentinel) => JSON.stringify(copy).includes(sentinel));
        // The positive control: a premium copy must carry the article's sentinel, or this check proves nothing.
        expect(carried, `${copy.to} (cut at ${cutAt.get(copy.to)})`).toEqual(
          cutAt.get(copy.to) === 'premium' ? [ISSUE_ARTICLE.sentinel] : [],
        );
      }
    } finally {
      await database.close();
    }
  });
});
