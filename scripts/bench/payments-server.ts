/**
 * The payments bench's server: the product's API (no site) on embedded PGlite with the embedded
 * payment provider, plus BENCH_MEMBERS signed-in members whose ids and tokens it writes to
 * BENCH_TOKENS_FILE. Not started: the embedded provider's own event delivery stays off, so the
 * levels change only through the webhook events the bench replays (payments leave theirs pending).
 */
import { writeFileSync } from 'node:fs';
import { benchMembers, startBenchApi } from './api-server.ts';

const { services, ready } = await startBenchApi('payments');
writeFileSync(
  process.env.BENCH_TOKENS_FILE!,
  JSON.stringify(await benchMembers(services, 'payments', Number(process.env.BENCH_MEMBERS ?? 100))),
);
ready();
