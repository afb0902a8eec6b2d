/**
 * The API app on a real database, mounted without a network port (`app.request()`). With
 * TEST_APP_THROUGH=function (the `integration-function` project, which runs the route tables), a
 * request takes the way a serverless function instance answers it instead (`answerAsFunction`: the
 * platform's body limit, the answer lane, then the app), so every role table holds there too.
 */
import path from 'node:path';
import { createApp, type App } from '../../functions/app.ts';
import { loadConfig, type Config } from '../../functions/config.ts';
import { createServices, type ServiceOptions, type Services } from '../../functions/compose.ts';
import { answerAsFunction } from '../../functions/serverless.ts';
import { quietLogger } from './fixtures.ts';
import { openTestDatabase, type TestDatabaseKind } from './databases.ts';

export const CONTENT_DIR = path.resolve(import.meta.dirname, '../../content');

/** Configuration for tests: defaults plus `env` (mail goes to a temp mailbox unless SMTP is set). */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ CONTENT_DIR, LOG_LEVEL: 'silent', MAX_BODY_BYTES: String(64 * 1024), TRUST_PROXY: '1', ...env });
}

/** The app whose `request()` answers as a function instance does (every other member as the app's). */
function throughFunction(app: App, services: Services): App {
  const answer = answerAsFunction({ app, services });
  const request = (input: string | URL | Request, init?: RequestInit) =>
    answer(input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init));
  return new Proxy(app, { get: (target, prop) => (prop === 'request' ? request : Reflect.get(target, prop, target)) });
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
  const created = createApp({ config, logger: quietLogger(), services });
  const app = process.env.TEST_APP_THROUGH === 'function' ? throughFunction(created, services) : created;
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
