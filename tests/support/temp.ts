/** Temporary folders that a test file removes when it ends. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

const created: string[] = [];
// Registered when a test file imports this module: runs after all of that file's tests.
afterAll(() => Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true }))));

/** A fresh folder under the OS temp dir, removed after the calling test file. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), `beacon-${prefix}-`));
  created.push(dir);
  return dir;
}
