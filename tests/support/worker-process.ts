/**
 * The outbox worker as its own process (`functions/worker.ts`), for the crash tests: started with
 * only the environment given (so every other setting is its default) and killed when the test ends,
 * whatever its outcome, so a failed test leaves no worker claiming the next test's mail.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { CONTENT_DIR } from './app.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** How long a worker process may take to start and claim mail on a loaded machine (it loads the server's modules). */
export const WORKER_START_MS = 60_000;

export function spawnWorker(env: Record<string, string>) {
  const child = spawn(process.execPath, [path.join(ROOT, 'functions/worker.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', CONTENT_DIR, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  onTestFinished(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await exited;
  });
  return {
    /** Kills the process at once (no graceful stop: its leases are left to run out) and waits for it to end. */
    async kill(): Promise<void> {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
