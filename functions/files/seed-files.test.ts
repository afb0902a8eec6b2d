/**
 * The seed content demonstrates gating honestly: no protected file under content/files/ (lesson media,
 * downloads) is a byte-identical copy of a public file under public/, which anyone could fetch
 * without signing in. (Member uploads live in DATA_DIR, not here.)
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FILES = path.join(ROOT, 'content', 'files');
const PUBLIC = path.join(ROOT, 'public');

async function digests(dir: string, skip: (relative: string) => boolean = () => false): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const relative = path.relative(dir, file);
    if (skip(relative)) continue;
    out.set(
      relative,
      createHash('sha256')
        .update(await readFile(file))
        .digest('hex'),
    );
  }
  return out;
}

describe('seed content files', () => {
  it('has protected files, none of them a copy of a public file', async () => {
    const isUpload = (relative: string) => relative.split(path.sep)[0] === 'uploads';
    const protectedFiles = await digests(FILES, isUpload);
    const publicByDigest = new Map([...(await digests(PUBLIC))].map(([file, digest]) => [digest, file]));
    expect(protectedFiles.size).toBeGreaterThan(10);
    const copies = [...protectedFiles]
      .filter(([, digest]) => publicByDigest.has(digest))
      .map(([file, digest]) => `content/files/${file} = public/${publicByDigest.get(digest)}`);
    expect(copies).toEqual([]);
  });
});
