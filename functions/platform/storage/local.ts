/**
 * The local-disk adapter: one folder, one file per key. A write goes to a temporary file in the same
 * folder and is renamed into place once complete, so the key never names a partial file; a failed
 * write removes its temporary file.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { lookup } from 'mrmime';
import { assertStorageKey, isStorageKey, type ByteRange, type PutOptions, type StoragePort } from './port.ts';

export interface LocalStorageOptions {
  dir: string;
  /** Public URL prefix, e.g. `/media`; undefined when the files are not public (the protected area). */
  publicBase?: string;
}

const typeOf = (key: string) => lookup(key) ?? 'application/octet-stream';

export function createLocalStorage({ dir, publicBase }: LocalStorageOptions): StoragePort {
  const root = path.resolve(dir);
  const fileOf = (key: string) => {
    assertStorageKey(key);
    return path.join(root, key);
  };
  return {
    async put(body: Readable, { key }: PutOptions) {
      const target = fileOf(key);
      await mkdir(root, { recursive: true });
      const temp = path.join(root, `.partial-${randomUUID()}`);
      let size = 0;
      const count = async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          size += chunk.length;
          yield chunk;
        }
      };
      try {
        await pipeline(body, count, createWriteStream(temp, { flags: 'wx' }));
        await rename(temp, target);
      } catch (err) {
        await unlink(temp).catch(() => undefined);
        throw err;
      }
      return { size };
    },

    async get(key: string, range?: ByteRange) {
      if (!isStorageKey(key)) return undefined;
      // Opened first, so a delete racing the read cannot fail the stream after the answer started.
      const handle = await open(path.join(root, key), 'r').catch(() => undefined);
      if (!handle) return undefined;
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return undefined;
      }
      const body = handle.createReadStream(range ? { start: range.start, end: range.end } : {});
      return { body, size: info.size, contentType: typeOf(key) };
    },

    async stat(key: string) {
      if (!isStorageKey(key)) return undefined;
      const info = await stat(path.join(root, key)).catch(() => undefined);
      return info?.isFile() ? { size: info.size, contentType: typeOf(key) } : undefined;
    },

    async delete(key: string) {
      await unlink(fileOf(key)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
    },

    async list() {
      return (await readdir(root).catch(() => [] as string[])).sort();
    },

    publicUrl: (key: string) => (publicBase === undefined ? undefined : `${publicBase}/${key}`),
  };
}
