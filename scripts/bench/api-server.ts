/**
 * What the benches' own API servers share: the product's API (no site) on the configured database,
 * started without background work (the benches drive what they measure), members made and signed
 * in directly (sign-up is rate limited per address), and a clean stop on SIGTERM.
 */
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createApp } from '../../functions/app.ts';
import { loadConfig } from '../../functions/config.ts';
import { listen } from '../../functions/platform/http/http-server.ts';
import { LOG_SERIALIZERS } from '../../functions/platform/logger.ts';
import type { Role } from '#shared/access.ts';
import { createServices, type Services } from '../../functions/compose.ts';

export async function startBenchApi(name: string, onStop: () => void = () => undefined) {
  const config = loadConfig();
  const logger = pino({ level: 'warn', serializers: LOG_SERIALIZERS });
  const services = await createServices(config, logger);
  const server = await listen(createApp({ config, logger, services }), config);
  process.on('SIGTERM', () => {
    onStop();
    server.close();
    void services.close().then(() => process.exit(0));
  });
  return {
    services,
    /** Prints the line the bench waits for. */
    ready: () => console.log(`bench ${name} server running at http://127.0.0.1:${(server.address() as AddressInfo).port}`),
  };
}

/** `count` confirmed, signed-in accounts (`{prefix}-{i}@{name}.bench`), with a role when given. */
export async function benchMembers(services: Services, name: string, count: number, role?: Role): Promise<{ id: string; token: string }[]> {
  const members: { id: string; token: string }[] = [];
  for (let i = 0; i < count; i++) {
    const email = `bench-${role ?? 'member'}-${i}@${name}.bench`;
    const password = `${name} bench pass`;
    const id = await services.auth.createConfirmedUser(email, password, `Member ${i}`);
    if (role) await services.users.assign(id, role, 'free');
    const { access_token } = await services.auth.signInWithPassword({ email, password });
    members.push({ id, token: access_token });
  }
  return members;
}
