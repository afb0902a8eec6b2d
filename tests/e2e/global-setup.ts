/**
 * Starts the whole product for the browser tests: the test build, served by the real server on a
 * free port, on the seeded Postgres site database. Tests reach it through baseURL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { loadConfig } from '../../functions/config.ts';
import { startServer } from '../../functions/main.ts';
import { quietLogger } from '../support/fixtures.ts';
import { freePort } from '../support/postgres.ts';
import { exportEnvironment, prepareTestEnvironment } from '../support/site.ts';

export default async function globalSetup(config: FullConfig) {
  const env = await prepareTestEnvironment();
  exportEnvironment(env);
  // Its own data folder: the server's mailbox and lock file must not land in the developer's .data/.
  const dataDir = await mkdtemp(path.join(tmpdir(), 'beacon-e2e-'));
  // A known port, so SITE_URL (links in mails, the auth issuer) names the address the browser uses.
  const port = await freePort();
  const server = await startServer(
    loadConfig({
      HOST: '127.0.0.1',
      PORT: String(port),
      SITE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: env.siteDbUrl,
      // A server on Postgres is a deployment: its test checkout is asked for on purpose.
      PAYMENTS: 'test',
      DIST_DIR: env.distDir,
      NODE_ENV: 'test',
      // Set-up helpers sign up from addresses of their own (tests/e2e/members.ts): trust one proxy hop.
      TRUST_PROXY: '1',
      LOG_LEVEL: 'silent',
      // The demo accounts (one per level and staff role): the gated-content journeys use the admin.
      AUTH_SEED_DEMO: 'true',
      // Every journey signs someone up or in: the cheapest hash (as in the integration suites) makes
      // that a plain request; the default (10) spends tens of milliseconds of a core on each hash.
      AUTH_BCRYPT_COST: '4',
      // The community's reply mails go out within a second, so the journey that waits for one is short.
      COMMUNITY_MAIL_ROUND_SECONDS: '1',
    }),
    quietLogger(),
  );
  process.env.E2E_BASE_URL = server.url;
  // The mailbox of .eml files (tests/e2e/mailbox.ts opens them as a person's mail program would).
  process.env.E2E_MAILBOX_DIR = path.join(dataDir, 'mailbox');
  for (const project of config.projects) project.use.baseURL = server.url;
  return async () => {
    await server.close();
    await env.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
