/**
 * The site search bench's server: the product's API (no site) on the configured database with 10,000
 * generated database articles (search.ts's generator), written straight into `content_items` and
 * indexed by the content domain's own start-up fill (`content.search.sync()`, which writes the rows of
 * items that have none), and a premium and a free member signed in. It writes their tokens and the
 * fill's time to BENCH_TOKENS_FILE.
 */
import { writeFileSync } from 'node:fs';
import { contentItems } from '../../functions/content/tables.ts';
import { benchMembers, startBenchApi } from './api-server.ts';
import { generatedArticles } from './search-corpus.ts';

const TOTAL = Number(process.env.BENCH_SEARCH_ITEMS ?? 10_000);
const { services, ready } = await startBenchApi('search');
const { db } = services.database;

let started = performance.now();
const articles = generatedArticles(TOTAL);
for (let i = 0; i < articles.length; i += 500) await db.insert(contentItems).values(articles.slice(i, i + 500));
const insertMs = performance.now() - started;
started = performance.now();
await services.content.search.sync();
const indexMs = performance.now() - started;

const [premium, free] = await benchMembers(services, 'search', 2);
await services.users.assign(premium!.id, 'member', 'premium');
writeFileSync(
  process.env.BENCH_TOKENS_FILE!,
  JSON.stringify({ premium: premium!.token, free: free!.token, insertMs, indexMs, total: TOTAL }),
);
ready();
