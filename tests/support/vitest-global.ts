/**
 * Vitest global set-up for the integration and scale projects: the shared Postgres server and test
 * build and, for the integration suites, both databases migrated once per run, which every test
 * database starts from (openTestDatabase): a Postgres template database, and a PGlite cluster
 * written to a file (unpacking it costs a fraction of a new cluster's initdb and migrations) and
 * to a folder that servers' DATA_DIRs start from (migratedDataDir).
 * Migrations still run on each copy, so a stale template could only cost time.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../functions/platform/db/client.ts';
import { quietLogger } from './fixtures.ts';
import { startPooler, type TestPooler } from './pgbouncer.ts';
import { createTestDatabase } from './postgres.ts';
import { exportEnvironment, prepareTestEnvironment } from './site.ts';

/**
 * Migrates a new in-memory PGlite database the product's way and writes its cluster to a file, and
 * the same cluster as a folder (a server's DATA_DIR/pglite: migratedDataDir in databases.ts).
 */
async function makePgliteTemplate(dir: string): Promise<{ file: string; folder: string }> {
  const database = await openDatabase({ kind: 'pglite', dataDir: 'memory://' }, quietLogger());
  let cluster: Blob;
  try {
    cluster = await (database.db as unknown as { $client: PGlite }).$client.dumpDataDir('none');
  } finally {
    await database.close();
  }
  const file = path.join(dir, 'migrated-cluster.tar');
  await writeFile(file, new Uint8Array(await cluster.arrayBuffer()));
  const folder = path.join(dir, 'migrated-cluster');
  await (await openDatabase({ kind: 'pglite', dataDir: folder }, quietLogger(), { pgliteTemplate: cluster })).close();
  return { file, folder };
}

/** A migrated Postgres database to copy (`create database … template`); answers its name. Its pool is closed: a template has no sessions. */
async function makePostgresTemplate(adminUrl: string): Promise<string> {
  const url = await createTestDatabase(adminUrl, 'template_migrated');
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 1 }, quietLogger());
  await database.close();
  return new URL(url).pathname.slice(1);
}

export default async function setup(project: TestProject) {
  const env = await prepareTestEnvironment();
  exportEnvironment(env);
  const templateDir = project.name.startsWith('integration') ? await mkdtemp(path.join(tmpdir(), 'beacon-pglite-template-')) : undefined;
  let pglite: { file: string; folder: string } | undefined;
  let pgTemplate: string | undefined;
  // The integration and Netlify suites' Postgres databases are used through PgBouncer in transaction mode (pgbouncer.ts).
  let pooler: TestPooler | undefined;
  try {
    // The function project runs on Postgres alone (a function needs it): no PGlite cluster to make.
    if (templateDir && project.name !== 'integration-function') pglite = await makePgliteTemplate(templateDir);
    if (templateDir) pgTemplate = await makePostgresTemplate(env.pgAdminUrl);
    if (templateDir || project.name === 'netlify') pooler = await startPooler(env.pgAdminUrl);
  } catch (err) {
    if (templateDir) await rm(templateDir, { recursive: true, force: true });
    await env.stop();
    throw err;
  }
  project.provide('testEnv', {
    pgAdminUrl: env.pgAdminUrl,
    siteDbUrl: env.siteDbUrl,
    distDir: env.distDir,
    pgliteTemplate: pglite?.file,
    pgliteCluster: pglite?.folder,
    pgTemplate,
    pgPoolerUrl: pooler?.pooled(env.pgAdminUrl),
  });
  return async () => {
    await pooler?.stop();
    if (templateDir) await rm(templateDir, { recursive: true, force: true });
    await env.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite cluster's file and folder, and Postgres template database (integration only). */
    testEnv: {
      pgAdminUrl: string;
      siteDbUrl: string;
      distDir: string;
      pgliteTemplate?: string;
      pgliteCluster?: string;
      pgTemplate?: string;
      /** The test Postgres server through PgBouncer in transaction mode (integration only). */
      pgPoolerUrl?: string;
    };
  }
}
