/**
 * Netlify's own tools for the Netlify suite (tests/netlify/): netlify-cli from npm (about 350 MB, so
 * installed once per machine outside the project, never a dependency of it), a copy of the app to
 * build in (the build writes dist/, which the other suites' build does not share), and
 * `netlify dev --offline` serving that build: its static server for the published files, and each
 * function call in a fresh worker, as a cold instance.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { ROOT } from './site.ts';

/** The netlify-cli version the suite was written against (its dev server's flags are not all public). */
export const NETLIFY_CLI_VERSION = '27.10.2';
export const NETLIFY_CLI_DIR =
  process.env.NETLIFY_CLI_DIR ?? path.join(homedir(), '.cache', 'beacon-growth', `netlify-cli-${NETLIFY_CLI_VERSION}`);
const NETLIFY_BIN = path.join(NETLIFY_CLI_DIR, 'node_modules', '.bin', 'netlify');

/** Installs netlify-cli into NETLIFY_CLI_DIR when it is not there yet; answers its binary. */
export function ensureNetlifyCli(): string {
  if (existsSync(NETLIFY_BIN)) return NETLIFY_BIN;
  console.log(`Installing netlify-cli ${NETLIFY_CLI_VERSION} into ${NETLIFY_CLI_DIR} (once per machine)...`);
  mkdirSync(NETLIFY_CLI_DIR, { recursive: true });
  const install = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      NETLIFY_CLI_DIR,
      '--no-audit',
      '--no-fund',
      '--no-save',
      '--loglevel=error',
      `netlify-cli@${NETLIFY_CLI_VERSION}`,
    ],
    { stdio: 'inherit' },
  );
  if (install.status !== 0 || !existsSync(NETLIFY_BIN)) throw new Error('Installing netlify-cli failed; see the messages above.');
  return NETLIFY_BIN;
}

/** A branch the copy is on, as a pull request's: its name and the files it adds or changes over `main`. */
export interface CopyBranch {
  name: string;
  files: Record<string, string>;
}

/**
 * A copy of the app's files (tracked and new, not ignored) in `.tmp/<name>`, with node_modules as
 * hard links (the same files, made in about a second), for a Netlify build of its own: a repository
 * of its own too, since Netlify's tools find included files from the repository's root. Its history
 * is one commit on `main` and, with `branch`, one commit on that branch, checked out (a pull request).
 * Answers the folder and the commit checked out.
 */
export function copyApp(name: string, branch?: CopyBranch): { dir: string; commit: string } {
  const dir = path.join(ROOT, '.tmp', name);
  rmSync(dir, { recursive: true, force: true });
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT })
    .toString()
    .split('\0');
  for (const file of listed.filter(Boolean)) {
    if (existsSync(path.join(ROOT, file))) cpSync(path.join(ROOT, file), path.join(dir, file), { recursive: true });
  }
  execFileSync('cp', ['-al', path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules')]);
  // A repository of its own: Netlify's tools take the repository's root as the app's (where included files are found from).
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Suite', '-c', 'user.email=suite@example.test', ...args], { cwd: dir })
      .toString()
      .trim();
  git('init', '--quiet', '--initial-branch=main');
  git('add', '--all');
  git('commit', '--quiet', '--no-verify', '-m', 'main');
  if (branch) {
    git('checkout', '--quiet', '-b', branch.name);
    for (const [file, text] of Object.entries(branch.files)) writeFileSync(path.join(dir, file), text);
    git('add', '--all');
    git('commit', '--quiet', '--no-verify', '-m', branch.name);
  }
  return { dir, commit: git('rev-parse', 'HEAD') };
}

/** The environment Netlify's tools run with: Node 22 (this process's) first on the PATH, no telemetry. */
export function netlifyEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
    HOME: process.env.HOME,
    NETLIFY_TELEMETRY_DISABLED: '1',
    ASTRO_TELEMETRY_DISABLED: '1',
    ...env,
  };
}

/** `netlify build --offline` in `dir`: the build command, then the functions packaged as Netlify zips them. */
export function netlifyBuild(dir: string, env: Record<string, string>, context = 'production'): string {
  const result = spawnSync(ensureNetlifyCli(), ['build', '--offline', '--context', context], {
    cwd: dir,
    env: netlifyEnv(env),
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`netlify build failed:\n${result.stdout.slice(-4000)}\n${result.stderr.slice(-4000)}`);
  return result.stdout;
}

export interface NetlifyDev {
  url: string;
  output: () => string;
  stop(): Promise<void>;
}

/** `netlify dev --offline` in `dir` on `port`, serving its build: resolves once it answers a function call. */
export async function startNetlifyDev(dir: string, port: number, env: Record<string, string>): Promise<NetlifyDev> {
  const child: ChildProcess = spawn(
    ensureNetlifyCli(),
    ['dev', '--offline', '--internal-disable-edge-functions', '--dir', 'dist/client', '--port', String(port), '--no-open'],
    { cwd: dir, env: netlifyEnv(env), stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://localhost:${port}`;
  // Its whole process group: the CLI and anything it started.
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, name);
      } catch {
        // Gone already.
      }
    };
    signal('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    signal('SIGKILL');
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    const ready = await fetch(`${url}/healthz`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`netlify dev did not start:\n${output.slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, output: () => output, stop };
}
