/**
 * A real, throw-away Postgres server for the test suites, started from the local server binaries
 * (Debian's /usr/lib/postgresql/<version>/bin, or PG_BIN). As root, the server runs as the
 * `postgres` user, because Postgres refuses to run as root.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface TestPostgres {
  /** Superuser URL of the maintenance database. */
  adminUrl: string;
  stop(): Promise<void>;
}

function findBinDir(): string {
  if (process.env.PG_BIN && existsSync(path.join(process.env.PG_BIN, 'initdb'))) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(path.join(base, v, 'bin', 'initdb'))) return path.join(base, v, 'bin');
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  if (which.status === 0) return path.dirname(which.stdout.trim());
  throw new Error('Postgres server binaries not found: install the "postgresql" package or set PG_BIN.');
}

/** A loopback port that is free right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

const asRoot = process.getuid?.() === 0;
/** As root, run Postgres binaries (and PgBouncer, which refuses root too) as the postgres user (spawned directly, so signals reach them). */
export const runAsPostgres = (): { uid: number; gid: number } | Record<string, never> => (asRoot ? userIds('postgres') : {});

async function waitReady(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Postgres exited during start-up:\n${log()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`Postgres did not become ready:\n${log()}`);
}

/** Starts a private Postgres server on a free loopback port. */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = findBinDir();
  const dir = await mkdtemp(path.join(tmpdir(), 'beacon-pg-'));
  if (asRoot) {
    const { uid, gid } = userIds('postgres');
    await chown(dir, uid, gid);
  }
  await chmod(dir, 0o700);
  const init = spawnSync(path.join(bin, 'initdb'), ['-D', dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'], {
    encoding: 'utf8',
    cwd: dir,
    ...runAsPostgres(),
  });
  if (init.status !== 0) throw new Error(`initdb failed:\n${init.stdout}\n${init.stderr}`);

  const port = await freePort();
  const args = [
    '-D',
    dir,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=200',
  ];
  let output = '';
  const child = spawn(path.join(bin, 'postgres'), args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir, ...runAsPostgres() });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await waitReady(adminUrl, child, () => output);

  return {
    adminUrl,
    async stop() {
      await stopChild(child, 10_000);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Asks a server process to stop (SIGINT: a fast shutdown for Postgres and PgBouncer), and kills it after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, graceMs))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

function userIds(name: string): { uid: number; gid: number } {
  const out = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const gidOut = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`user ${name} not found (install the postgresql package)`);
  return { uid: Number(out.stdout.trim()), gid: Number(gidOut.stdout.trim()) };
}

let counter = 0;

/** Creates a fresh database, empty or a copy of `template` (a database nobody is connected to), and returns its URL. */
export async function createTestDatabase(adminUrl: string, prefix = 'test', template?: string): Promise<string> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter++}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`create database "${name}"${template ? ` template "${template}"` : ''}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
