/**
 * The payments bench's server: the product's API (no site) on embedded PGlite with the embedded
 * payment provider (its event delivery off), plus BENCH_MEMBERS signed-in members whose ids and tokens it writes to
 * BENCH_TOKENS_FILE (made here, not through sign-up, which is rate limited per address).
 */
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createApp } from '../../functions/app.ts';
import { loadConfig } from '../../functions/config.ts';
import { listen } from '../../functions/lib/http-server.ts';
import { createServices } from '../../functions/services.ts';

const config = loadConfig();
const logger = pino({ level: 'warn' });
const services = await createServices(config, logger);
const app = createApp({ config, logger, services });
const server = await listen(app, config);
// Not started: the embedded provider's own event delivery stays off, so the levels change only
// through the webhook events the bench replays (payments leave their events pending).
const members: { id: string; token: string }[] = [];
for (let i = 0; i < Number(process.env.BENCH_MEMBERS ?? 100); i++) {
  const email = `bench-member-${i}@payments.bench`;
  const id = await services.auth.createConfirmedUser(email, 'payments bench pass', `Member ${i}`);
  const { access_token } = await services.auth.signInWithPassword({ email, password: 'payments bench pass' });
  members.push({ id, token: access_token });
}
writeFileSync(process.env.BENCH_TOKENS_FILE!, JSON.stringify(members));
console.log(`bench payments server running at http://127.0.0.1:${(server.address() as AddressInfo).port}`);
process.on('SIGTERM', () => {
  server.close();
  void services.close().then(() => process.exit(0));
});
