/**
 * `npm test`: every suite CI runs, in order, stopping at the first failure:
 * type check and lint with format check (at once, one core each), unit tests, then (with one Postgres server and one site build shared by all of them)
 * integration and leak tests against PGlite and Postgres, the scale-out test (three instances behind nginx) and the
 * browser tests in Chromium. Installs Debian's chromium and nginx first when missing and we are allowed to (root).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CHROMIUM_PATH } from '../tests/support/chromium.ts';
import { ensureNginx } from '../tests/support/nginx.ts';
import { exportEnvironment, prepareTestEnvironment } from '../tests/support/site.ts';

const root = path.resolve(import.meta.dirname, '..');
process.env.ASTRO_TELEMETRY_DISABLED = '1';

/** Runs one suite; returns its exit status (0 when it passed). */
function run(title: string, cmd: string, args: string[]): number {
  const started = Date.now();
  console.log(`\n━━ ${title} ━━ ${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const status = result.status ?? 1;
  if (status !== 0) console.error(`\n✖ ${title} failed after ${seconds}s`);
  else console.log(`✔ ${title} (${seconds}s)`);
  return status;
}

/**
 * Runs independent suites at once (one per core), each one's output held and printed whole when it ends;
 * returns the first failing status, 0 when all passed.
 */
async function runTogether(suites: [title: string, cmd: string, args: string[]][]): Promise<number> {
  const started = Date.now();
  console.log(`\n━━ ${suites.map(([title]) => title).join(' ‖ ')} ━━ (at once)`);
  const results = await Promise.all(
    suites.map(
      ([title, cmd, args]) =>
        new Promise<{ title: string; status: number; output: string; seconds: string }>((resolve) => {
          const child = spawn(cmd, args, { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
          const chunks: Buffer[] = [];
          child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
          child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
          child.on('close', (code) =>
            resolve({
              title,
              status: code ?? 1,
              output: Buffer.concat(chunks).toString(),
              seconds: ((Date.now() - started) / 1000).toFixed(1),
            }),
          );
        }),
    ),
  );
  for (const { title, status, output, seconds } of results) {
    if (output.trim()) console.log(`\n── ${title} ──\n${output.trimEnd()}`);
    if (status !== 0) console.error(`\n✖ ${title} failed after ${seconds}s`);
    else console.log(`✔ ${title} (${seconds}s)`);
  }
  return results.find((r) => r.status !== 0)?.status ?? 0;
}

const must = (status: number) => status === 0 || process.exit(status);

function ensureChromium(): void {
  if (existsSync(CHROMIUM_PATH)) return;
  if (process.getuid?.() !== 0) {
    console.error('Chromium is missing: install Debian\'s "chromium" package (apt-get install chromium).');
    process.exit(1);
  }
  must(
    run('Install chromium', 'sh', [
      '-c',
      'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium',
    ]),
  );
}

const only = process.argv[2];
// The type check and the lint are independent and mostly single-threaded: one core each.
must(
  await runTogether([
    ['Type check', 'npm', ['run', '--silent', 'check']],
    ['Lint and format', 'npm', ['run', '--silent', 'lint']],
  ]),
);
must(run('Unit tests', 'npx', ['vitest', 'run', '--project', 'unit']));
if (only === 'unit') process.exit(0);

ensureChromium();
ensureNginx();
console.log('\n━━ Test environment ━━ Postgres server, seeded site database, site build');
const env = await prepareTestEnvironment();
exportEnvironment(env);
let status = run('Integration and leak tests (PGlite and Postgres)', 'npx', ['vitest', 'run', '--project', 'integration']);
if (status === 0) status = run('Scale-out (three instances behind nginx)', 'npx', ['vitest', 'run', '--project', 'scale']);
if (status === 0) status = run('Browser tests (Chromium)', 'npx', ['playwright', 'test']);
await env.stop();
process.exit(status);
