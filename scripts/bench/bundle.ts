/**
 * `npm run bench -- --only=bundle`: the production bundle's size (all of it, and node_modules) and
 * its cold start: a fresh copy started with Node, a fresh DATA_DIR (PGlite, migrations, demo
 * accounts) until /readyz answers 200, median of three (budget: under 5 s).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const du = (dir: string) => Number(spawnSync('du', ['-sk', dir], { encoding: 'utf8' }).stdout.split('\t')[0]) / 1024;

async function coldStart(folder: string, dataDir: string, port: number): Promise<number> {
  rmSync(dataDir, { recursive: true, force: true });
  const started = performance.now();
  const child = spawn(process.execPath, ['functions/server.ts'], {
    cwd: folder,
    env: { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return (performance.now() - started) / 1000;
      if (child.exitCode !== null) throw new Error(`the bundle exited with ${child.exitCode}`);
      if (performance.now() - started > 60_000) throw new Error('the bundle did not get ready within a minute');
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

export async function bundleBench(tmp: string, distDir: string): Promise<void> {
  const out = path.join(tmp, 'bundle');
  const copy = path.join(tmp, 'bundle-copy');
  const root = path.resolve(import.meta.dirname, '../..');
  const made = spawnSync(process.execPath, ['scripts/bundle.ts', '--dist', distDir, '--out', out], { cwd: root, stdio: 'ignore' });
  if (made.status !== 0) throw new Error('npm run bundle failed');
  rmSync(copy, { recursive: true, force: true });
  cpSync(out, copy, { recursive: true });
  const times: number[] = [];
  for (let round = 0; round < 3; round += 1) times.push(await coldStart(copy, path.join(tmp, 'bundle-data'), 4600 + round));
  const cold = median(times);
  console.log('\n## Production bundle (npm run bundle)\n');
  console.log('| bundle | node_modules | cold start to /readyz (median of 3) | runs |\n|---|---|---|---|');
  console.log(
    `| ${du(copy).toFixed(0)} MB | ${du(path.join(copy, 'node_modules')).toFixed(0)} MB | ${cold.toFixed(2)} s | ${times.map((t) => t.toFixed(2)).join(' / ')} s |`,
  );
  console.log(`\nGoal: cold start under 5 s: ${cold < 5 ? 'PASS' : 'FAIL'}`);
}
