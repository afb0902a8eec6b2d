/**
 * Debian's PgBouncer in transaction mode in front of the test Postgres server: the integration
 * suites' Postgres databases are used through it, as a serverless deployment uses Supabase's or
 * Neon's pooler, so anything that needs a session (LISTEN, a session lock, named prepared
 * statements, SET) fails or is lost in the tests as it would there. Sessions that need one
 * (migrations, LISTEN) take the direct URL, as DATABASE_DIRECT_URL does in production.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, runAsPostgres, stopChild } from './postgres.ts';

export interface TestPooler {
  /** The same database as `directUrl`, through the pooler. */
  pooled(directUrl: string): string;
  stop(): Promise<void>;
}

/** Installs Debian's pgbouncer when missing and run as root (as `npm test` does for nginx and Chromium). */
export function ensurePgbouncer(): void {
  try {
    findPgbouncer();
    return;
  } catch (err) {
    if (process.getuid?.() !== 0) throw err;
  }
  const result = spawnSync(
    'sh',
    ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends pgbouncer'],
    { stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error('could not install pgbouncer');
}

function findPgbouncer(): string {
  for (const candidate of [process.env.PGBOUNCER, '/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'])
    if (candidate && existsSync(candidate)) return candidate;
  const which = spawnSync('sh', ['-c', 'command -v pgbouncer'], { encoding: 'utf8' });
  if (which.status === 0) return which.stdout.trim();
  throw new Error('PgBouncer not found: install the "pgbouncer" package (the Postgres suites run through it) or set PGBOUNCER.');
}

async function waitReady(url: string, log: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (err) {
      if (Date.now() > deadline)
        throw new Error(`PgBouncer did not become ready: ${String(err)}\n${await readFile(log, 'utf8').catch(() => '')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

/** Starts PgBouncer (transaction mode) on a free loopback port, for every database of the server at `adminUrl`. */
export async function startPooler(adminUrl: string): Promise<TestPooler> {
  const binary = findPgbouncer();
  const server = new URL(adminUrl);
  const dir = await mkdtemp(path.join(tmpdir(), 'beacon-pgbouncer-'));
  const port = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  const log = path.join(dir, 'pgbouncer.log');
  await writeFile(
    ini,
    [
      '[databases]',
      // Any database name, on the test server, as its superuser (trust authentication).
      `* = host=${server.hostname} port=${server.port} user=${server.username || 'postgres'}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      'max_client_conn = 2000',
      'default_pool_size = 10',
      // Suites make hundreds of databases: server connections to one no longer used close soon.
      'server_idle_timeout = 10',
      `logfile = ${log}`,
      `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  const ids = runAsPostgres();
  if ('uid' in ids) {
    await chown(dir, ids.uid, ids.gid);
    await chown(ini, ids.uid, ids.gid);
  }
  const child = spawn(binary, [ini], { stdio: 'ignore', ...ids });
  const url = (direct: string) => {
    const pooled = new URL(direct);
    pooled.host = `127.0.0.1:${port}`;
    return pooled.toString();
  };
  try {
    await waitReady(url(adminUrl), log);
  } catch (err) {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    pooled: url,
    async stop() {
      await stopChild(child, 5_000);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
