/** Load generation for the benches: Debian's wrk, one thread and 50 connections a run. */
import { spawnSync } from 'node:child_process';

const WRK = '/usr/bin/wrk';

/** Debian's wrk, installed when missing (like chromium for the tests) if we may (root). */
export function ensureWrk(): string {
  const found = spawnSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  if (process.getuid?.() !== 0) throw new Error('wrk is missing: install Debian\'s "wrk" package (apt-get install wrk).');
  const result = spawnSync(
    'sh',
    ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wrk'],
    { stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error('could not install wrk');
  return WRK;
}

export interface LoadResult {
  rps: number;
  p50: string;
  p99: string;
  errors: number;
}

/** One wrk run: one thread (wrk is far lighter than the servers, so one core is plenty), 50 connections. */
export function wrk(bin: string, url: string, seconds: number, headers: string[] = []): LoadResult {
  const result = spawnSync(bin, ['-t1', '-c50', `-d${seconds}s`, '--latency', ...headers.flatMap((h) => ['-H', h]), url], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`wrk failed: ${result.stderr}`);
  const out = result.stdout;
  const pick = (re: RegExp) => re.exec(out)?.[1];
  const errors = [...out.matchAll(/(?:Non-2xx or 3xx responses|Socket errors):\s*(.*)/g)]
    .flatMap((m) => [...m[1]!.matchAll(/\d+/g)].map(Number))
    .reduce((a, b) => a + b, 0);
  return { rps: Number(pick(/Requests\/sec:\s*([\d.]+)/)), p50: pick(/ 50%\s+(\S+)/) ?? '?', p99: pick(/ 99%\s+(\S+)/) ?? '?', errors };
}
