/**
 * Starts the whole product for the browser tests: the test build, served by the real server on a
 * free port, on the seeded Postgres site database. Tests reach it through baseURL.
 */
import type { FullConfig } from '@playwright/test';
import { loadConfig } from '../../functions/config.ts';
import { startServer } from '../../functions/main.ts';
import { quietLogger } from '../support/fixtures.ts';
import { exportEnvironment, prepareTestEnvironment } from '../support/site.ts';

export default async function globalSetup(config: FullConfig) {
  const env = await prepareTestEnvironment();
  exportEnvironment(env);
  const server = await startServer(
    loadConfig({ PORT: '0', DATABASE_URL: env.siteDbUrl, DIST_DIR: env.distDir, NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
    quietLogger(),
  );
  process.env.E2E_BASE_URL = server.url;
  for (const project of config.projects) project.use.baseURL = server.url;
  return async () => {
    await server.close();
    await env.stop();
  };
}
