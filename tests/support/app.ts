/** The API app on a real database, mounted without a network port (`app.request()`). */
import path from 'node:path';
import { createApp } from '../../functions/app.ts';
import { loadConfig, type Config } from '../../functions/config.ts';
import { createServices, type ServiceOptions } from '../../functions/compose.ts';
import { quietLogger } from './fixtures.ts';
import { openTestDatabase, type TestDatabaseKind } from './databases.ts';

export const CONTENT_DIR = path.resolve(import.meta.dirname, '../../content');

/** Configuration for tests: defaults plus `env` (mail goes to a temp mailbox unless SMTP is set). */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ CONTENT_DIR, LOG_LEVEL: 'silent', MAX_BODY_BYTES: String(64 * 1024), TRUST_PROXY: '1', ...env });
}

/** One server instance's worth of services on its own database (or on `shared` for a second instance). */
export async function createTestApp(
  kind: TestDatabaseKind,
  shared?: Awaited<ReturnType<typeof openTestDatabase>>,
  env: Record<string, string> = {},
  options: Omit<ServiceOptions, 'database'> = {},
) {
  const database = shared ?? (await openTestDatabase(kind));
  const config = testConfig(env);
  const services = await createServices(config, quietLogger(), { ...options, database });
  const app = createApp({ config, logger: quietLogger(), services });
  return {
    app,
    config,
    services,
    content: services.content,
    contentCache: services.contentCache,
    mdx: services.mdx,
    database,
    async close() {
      await services.close();
      if (!shared) await database.close();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * A request to the app as the member whose token `tokens[who]` holds (none: a visitor), with a JSON
 * body when one is given.
 */
export function callerOf(app: () => TestApp['app'], tokens: Record<string, string>) {
  return (who: string | undefined, path: string, method = 'GET', body?: unknown) =>
    app().request(path, {
      method,
      headers: {
        ...(who ? { authorization: `Bearer ${tokens[who]}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
}
