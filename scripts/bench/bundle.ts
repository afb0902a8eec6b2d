/**
 * `npm run bench -- --only=bundle`: the production bundle's size and its cold start, on Postgres and
 * on PGlite. Each start is from an empty folder (a fresh copy of the bundle, a fresh DATA_DIR and,
 * on Postgres, a fresh database) and is timed until the first page answers 200 (the server listens
 * only once it is ready); then its memory is read at once and after 3 s idle (RSS), and it is
 * stopped with SIGTERM. Five starts a database; median and spread. The CPU time a start used is
 * reported too: on a shared machine it moves far less than the wall time.
 * Budgets (issue 32): first page under 1.5 s on Postgres and 2 s on PGlite; idle RSS under 150 MiB
 * and 250 MiB; the bundle under 150 MB.
 *   --compare=<folder>: another bundle (say, an older commit's) started alternately with this one.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { createTestDatabase, freePort, startPostgres } from '../../tests/support/postgres.ts';
import { BUNDLE_COMMANDS } from '../bundle.ts';

const STARTS = 5;
const IDLE_MS = 3_000;
const MiB = 1024 * 1024;
const BUDGET = { postgres: { firstPage: 1.5, idleMiB: 150 }, pglite: { firstPage: 2, idleMiB: 250 }, bundleMB: 150 };

interface Start {
  firstPage: number;
  cpu: number;
  rssFirst: number;
  rssIdle: number;
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)]!;
const spread = (values: number[], digits: number) => `${sorted(values)[0]!.toFixed(digits)}-${sorted(values).at(-1)!.toFixed(digits)}`;

/** Bytes and files of a folder, every file counted. */
function size(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    bytes += statSync(path.join(entry.parentPath, entry.name)).size;
    files += 1;
  }
  return { bytes, files };
}

function rssOf(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;
}

/** User and system CPU seconds the process has used (Linux /proc; clock ticks are 100 a second). */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** One cold start of a fresh copy of `bundle`, with `env` added (the database). */
async function coldStart(bundle: string, scratch: string, env: Record<string, string>): Promise<Start> {
  const folder = path.join(scratch, 'app');
  const dataDir = path.join(scratch, 'data');
  rmSync(scratch, { recursive: true, force: true });
  cpSync(bundle, folder, { recursive: true });
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, BUNDLE_COMMANDS.web.slice(1), {
    cwd: folder,
    env: { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/`).then(
        async (r) => (await r.arrayBuffer(), r.status === 200),
        () => false,
      );
      if (ok) break;
      if (child.exitCode !== null) throw new Error(`the bundle exited with ${child.exitCode}`);
      if (performance.now() - started > 120_000) throw new Error('the bundle served no page within two minutes');
      await new Promise((r) => setTimeout(r, 10));
    }
    const firstPage = (performance.now() - started) / 1000;
    const cpu = cpuOf(child.pid!);
    const rssFirst = rssOf(child.pid!);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    return { firstPage, cpu, rssFirst, rssIdle: rssOf(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0) console.log(`(a start of ${bundle} stopped with ${code})`);
    rmSync(scratch, { recursive: true, force: true });
  }
}

function row(label: string, database: 'postgres' | 'pglite', starts: Start[]): string {
  const first = starts.map((s) => s.firstPage);
  const idle = starts.map((s) => s.rssIdle / MiB);
  const budget = BUDGET[database];
  const pass = median(first) < budget.firstPage && median(idle) < budget.idleMiB ? 'PASS' : 'FAIL';
  return (
    `| ${label} | ${database === 'postgres' ? 'Postgres' : 'PGlite'} | ${median(first).toFixed(2)} s (${spread(first, 2)}) ` +
    `| ${median(starts.map((s) => s.cpu)).toFixed(2)} s (${spread(
      starts.map((s) => s.cpu),
      2,
    )}) | ${median(starts.map((s) => s.rssFirst / MiB)).toFixed(0)} MiB ` +
    `| ${median(idle).toFixed(0)} MiB (${spread(idle, 0)}) | ${pass} |`
  );
}

export async function bundleBench(tmp: string, distDir: string, compare?: string): Promise<void> {
  const out = path.join(tmp, 'bundle');
  const root = path.resolve(import.meta.dirname, '../..');
  const made = spawnSync(process.execPath, ['scripts/bundle.ts', '--dist', distDir, '--out', out], { cwd: root, stdio: 'ignore' });
  if (made.status !== 0) throw new Error('npm run bundle failed');
  const bundles = [{ label: 'this commit', folder: out }, ...(compare ? [{ label: path.basename(compare), folder: compare }] : [])];
  const loadBefore = loadavg()[0]!;
  const postgres = await startPostgres();
  const results = new Map<string, Start[]>();
  try {
    // Alternating bundles and databases, so a change in the machine's load falls on all of them alike.
    for (let round = 0; round < STARTS; round += 1)
      for (const { label, folder } of bundles) {
        const url = await createTestDatabase(postgres.adminUrl, 'bundle_bench');
        for (const [database, env] of [
          ['postgres', { DATABASE_URL: url, PAYMENTS: 'test', AUTH_SEED_DEMO: 'true' }],
          ['pglite', {}],
        ] as const) {
          const key = `${label}\t${database}`;
          results.set(key, [...(results.get(key) ?? []), await coldStart(folder, path.join(tmp, 'bundle-run'), env)]);
        }
      }
  } finally {
    await postgres.stop();
  }
  console.log('\n## Production bundle (npm run bundle)\n');
  console.log('| bundle | size | files | node_modules |\n|---|---|---|---|');
  for (const { label, folder } of bundles) {
    const all = size(folder);
    const modules = size(path.join(folder, 'node_modules'));
    console.log(
      `| ${label} | ${(all.bytes / 1e6).toFixed(0)} MB | ${all.files} | ${(modules.bytes / 1e6).toFixed(0)} MB in ${modules.files} files |`,
    );
  }
  console.log(`\nCold start from an empty folder to the first page, median (spread) of ${STARTS}:\n`);
  console.log(
    '| bundle | database | first page | CPU used | RSS at first page | RSS after 3 s idle | budget |\n|---|---|---|---|---|---|---|',
  );
  for (const [key, starts] of results) {
    const [label, database] = key.split('\t') as [string, 'postgres' | 'pglite'];
    console.log(row(label, database, starts));
  }
  const { bytes } = size(out);
  console.log(`\nBundle under ${BUDGET.bundleMB} MB: ${bytes / 1e6 < BUDGET.bundleMB ? 'PASS' : 'FAIL'}`);
  console.log(
    `Machine load (1-minute load average; this machine's cores: ${availableParallelism()}): ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after`,
  );
}
