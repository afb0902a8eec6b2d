/**
 * `npm test`: every suite CI runs, stopping at the first failure. On CI's two cores the static checks
 * (ESLint, the type check, Prettier) run at once, then
 * the unit tests while the test environment is made beside them (one Postgres server and one site
 * build, shared by every later suite), then the integration and leak tests against PGlite and
 * Postgres, the scale-out test (three instances behind nginx), the Netlify suite (the app built and
 * served by Netlify's own CLI) and the browser tests in Chromium. Installs Debian's chromium, nginx
 * and pgbouncer first when missing and we are allowed to (root), and netlify-cli once per machine.
 * `npm test -- <part>` runs one CI job's part alone (typecheck, lint, unit, integration, scale,
 * netlify, browser), making the test environment when the part needs it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CHROMIUM_PACKAGES, CHROMIUM_PATH, HEADLESS_SHELL_PATH } from '../tests/support/chromium.ts';
import { ensureNetlifyCli } from '../tests/support/netlify.ts';
import { ensureNginx } from '../tests/support/nginx.ts';
import { ensurePgbouncer } from '../tests/support/pgbouncer.ts';
import { exportEnvironment, prepareTestEnvironment, type TestEnvironment } from '../tests/support/site.ts';

const root = path.resolve(import.meta.dirname, '..');
process.env.ASTRO_TELEMETRY_DISABLED = '1';

/** A suite: its title and the command that runs it. */
type Suite = [title: string, cmd: string, args: string[]];

const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);

function report(title: string, status: number, started: number): void {
  if (status !== 0) console.error(`\n✖ ${title} failed after ${seconds(started)}s`);
  else console.log(`✔ ${title} (${seconds(started)}s)`);
}

/** Runs one suite with its output shown as it comes; resolves to its exit status (0 when it passed). */
function run([title, cmd, args]: Suite): Promise<number> {
  const started = Date.now();
  console.log(`\n━━ ${title} ━━ ${cmd} ${args.join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
    child.on('close', (code) => {
      report(title, code ?? 1, started);
      resolve(code ?? 1);
    });
  });
}

/** Runs one suite with its output held and printed whole when it ends (it shares the terminal). */
function runHeld([title, cmd, args]: Suite): Promise<number> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('close', (code) => {
      const output = Buffer.concat(chunks).toString().trimEnd();
      if (output) console.log(`\n── ${title} ──\n${output}`);
      report(title, code ?? 1, started);
      resolve(code ?? 1);
    });
  });
}

/**
 * Runs lanes at once, each lane's suites one after another (a lane stops at its first failure);
 * resolves to the first failing status, 0 when all passed.
 */
async function runLanes(lanes: Suite[][]): Promise<number> {
  const started = Date.now();
  console.log(`\n━━ ${lanes.map((lane) => lane.map(([title]) => title).join(' → ')).join(' ‖ ')} ━━ (at once)`);
  const statuses = await Promise.all(
    lanes.map(async (lane) => {
      for (const suite of lane) {
        const status = await runHeld(suite);
        if (status !== 0) return status;
      }
      return 0;
    }),
  );
  console.log(`(static checks: ${seconds(started)}s)`);
  return statuses.find((status) => status !== 0) ?? 0;
}

const must = (status: number) => status === 0 || process.exit(status);

function ensureChromium(): void {
  if ([CHROMIUM_PATH, HEADLESS_SHELL_PATH].every((file) => existsSync(file))) return;
  if (process.getuid?.() !== 0) {
    console.error(
      `Chromium is missing: install Debian's ${CHROMIUM_PACKAGES.join(' and ')} packages (apt-get install ${CHROMIUM_PACKAGES.join(' ')}).`,
    );
    process.exit(1);
  }
  const install = spawnSync(
    'sh',
    [
      '-c',
      `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${CHROMIUM_PACKAGES.join(' ')}`,
    ],
    { cwd: root, stdio: 'inherit' },
  );
  must(install.status ?? 1);
}

/** One CI job's part (`npm test -- <part>`, .ci/run <part>); none: every suite in turn. */
const PARTS = ['typecheck', 'lint', 'unit', 'integration', 'scale', 'netlify', 'browser'] as const;
type Part = (typeof PARTS)[number];
const only = process.argv[2] as Part | undefined;
if (only !== undefined && !PARTS.includes(only)) {
  console.error(`Unknown part "${only}": one of ${PARTS.join(', ')}, or none for every suite.`);
  process.exit(2);
}
const lint: Suite[] = [
  ['Lint (ESLint)', 'npm', ['run', '--silent', 'lint:code']],
  ['Format check (Prettier)', 'npm', ['run', '--silent', 'lint:format']],
];
const typeCheck: Suite = ['Type check (TypeScript 7 and Astro)', 'npm', ['run', '--silent', 'check']];
if (only === 'lint') process.exit(await runLanes([lint]));
if (only === 'typecheck') process.exit(await run(typeCheck));
// ESLint, the type check and the format check (about 75, 75 and 35 s of CPU, ESLint and the type
// check using more than one core at times): all three at once keep both cores busy.
if (only === undefined) must(await runLanes([[lint[0]!], [typeCheck], [lint[1]!]]));
const unitTests: Suite = ['Unit tests', 'npm', ['run', '--silent', 'test:unit']];
if (only === 'unit') process.exit(await run(unitTests));

ensureChromium();
ensureNginx();
ensurePgbouncer();
if (only === undefined || only === 'netlify') ensureNetlifyCli();
// The environment (Postgres, the seeded site database, the site build) is made while the unit tests
// run: they need none of it, and the build's waits fill gaps the unit workers leave.
console.log('\n━━ Test environment ━━ Postgres server, seeded site database, site build (beside the unit tests)');
const envStarted = Date.now();
const preparing = prepareTestEnvironment().then(
  (env) => {
    console.log(`✔ Test environment (${seconds(envStarted)}s)`);
    return env;
  },
  (err: unknown) => {
    console.error(`\n✖ Test environment failed after ${seconds(envStarted)}s\n`, err);
    return undefined;
  },
);
const unitStatus = only === undefined ? await run(unitTests) : 0;
const env: TestEnvironment | undefined = await preparing;
if (unitStatus !== 0 || !env) {
  await env?.stop();
  process.exit(unitStatus || 1);
}
exportEnvironment(env);
const suites: Record<Exclude<Part, 'typecheck' | 'lint' | 'unit'>, Suite> = {
  integration: ['Integration and leak tests (PGlite and Postgres)', 'npx', ['vitest', 'run', '--project', 'integration*']],
  scale: ['Scale-out (three instances behind nginx)', 'npx', ['vitest', 'run', '--project', 'scale']],
  netlify: ['Netlify (netlify build, netlify dev --offline)', 'npx', ['vitest', 'run', '--project', 'netlify']],
  browser: ['Browser tests (Chromium)', 'npx', ['playwright', 'test']],
};
let status = 0;
for (const [part, suite] of Object.entries(suites)) {
  if (status !== 0) break;
  if (only === undefined || only === part) status = await run(suite);
}
await env.stop();
process.exit(status);
