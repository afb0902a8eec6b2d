/**
 * The community bench's server: the real server (site and API, as `functions/server.ts` starts it) on
 * a fresh data folder with the demo accounts and the demo community, plus one thread of `general`
 * with REPLIES replies by the demo members, written straight through the community store before the
 * server starts (posting through the API is rate limited per account, and the bench measures reads).
 * Each reply is rendered with the members' renderer, as a post written through the API would be. The
 * thread's id goes to BENCH_TOKENS_FILE; the access log goes to stdout like the product's.
 */
import { writeFileSync } from 'node:fs';
import { eq, inArray } from 'drizzle-orm';
import { createCommunityStore } from '../../functions/community/store.ts';
import { communityCategories } from '../../functions/community/tables.ts';
import { createServices } from '../../functions/compose.ts';
import { loadConfig } from '../../functions/config.ts';
import { renderMemberPost } from '../../functions/content/render.ts';
import { startServer } from '../../functions/main.ts';
import { createLogger } from '../../functions/platform/logger.ts';
import { DEMO_ACCOUNTS } from '../../functions/users/demo.ts';
import { profiles } from '../../functions/users/tables.ts';

const REPLIES = Number(process.env.BENCH_REPLIES ?? 500);
const BENCH_THREAD_TITLE = 'Bench thread: 500 replies on local SEO';

const config = loadConfig();
const logger = createLogger(config.logLevel);

// Phase one: the services alone seed the demo accounts and community, then the long thread.
const services = await createServices(config, logger);
await services.start();
const db = services.database.db;
const [general] = await db.select().from(communityCategories).where(eq(communityCategories.slug, 'general'));
if (!general) throw new Error('the demo community has no general category (is AUTH_SEED_DEMO on?)');
const authors = (
  await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(
      inArray(
        profiles.email,
        DEMO_ACCOUNTS.map((a) => a.email),
      ),
    )
).map((p) => p.id);
const started = Date.now() - (REPLIES + 1) * 60_000;
/** A reply of a realistic length: a few sentences, a list, a link and some emphasis (about 600 characters of Markdown). */
const body = (i: number) =>
  [
    `Reply ${i}: we tried this with **three clients** last quarter and the results were mixed at first.`,
    '',
    '- Claim and complete the business profile, with real photos and opening hours.',
    '- Ask every happy customer for a review the same day, with a direct link.',
    `- Measure calls and direction requests, not only rankings (week ${i % 52}).`,
    '',
    'The [local SEO checklist](https://www.beacongrowth.co/tools/local-seo-checklist) covers the rest; the part people skip is',
    'the categories, which matter more than the description. Happy to share the spreadsheet we used if that helps anyone.',
  ].join('\n');
await createCommunityStore(db).seedThread({
  categoryId: general.id,
  title: BENCH_THREAD_TITLE,
  pinned: false,
  posts: Array.from({ length: REPLIES + 1 }, (_, i) => {
    const text = i === 0 ? 'Where do small shops get the most out of local search? Share what worked.' : body(i);
    return { authorId: authors[i % authors.length]!, body: text, html: renderMemberPost(text), createdAt: new Date(started + i * 60_000) };
  }),
});
await services.close();

// Phase two: the server as it runs in production, on the same data.
const running = await startServer(config, logger);
const threads = (await (await fetch(`${running.url}/api/community/threads?category=general&limit=100`)).json()) as {
  items: { id: string; title: string }[];
};
const thread = threads.items.find((t) => t.title === BENCH_THREAD_TITLE);
if (!thread) throw new Error('the bench thread is not listed in general');
if (process.env.BENCH_TOKENS_FILE) writeFileSync(process.env.BENCH_TOKENS_FILE, JSON.stringify({ threadId: thread.id, replies: REPLIES }));
process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
console.log(`bench community server running at ${running.url}`);
