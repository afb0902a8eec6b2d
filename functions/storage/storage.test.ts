/**
 * The storage port's contract, run against both adapters: local disk, and S3 against a real
 * S3-compatible server (s3rver) on loopback. A write is whole or absent: a stream that fails
 * mid-way leaves nothing under the key and no partial file behind.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3 } from '../../tests/support/s3.ts';
import { tempDir } from '../../tests/support/temp.ts';
import { createLocalStorage } from './local.ts';
import type { StoragePort } from './port.ts';
import { createS3Storage } from './s3.ts';

async function text(stream: Readable) {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** A stream that sends `bytes` then fails, as a cut connection does. */
function failingAfter(bytes: number) {
  return Readable.from(
    (async function* () {
      yield Buffer.alloc(bytes, 7);
      await new Promise((r) => setTimeout(r, 5));
      throw new Error('connection reset');
    })(),
  );
}

const adapters: [string, () => Promise<{ storage: StoragePort; close: () => Promise<void> }>][] = [
  ['local disk', async () => ({ storage: createLocalStorage({ dir: await tempDir('storage') }), close: async () => undefined })],
  [
    's3 (s3rver)',
    async () => {
      const s3 = await startS3();
      return { storage: createS3Storage(s3.options), close: s3.close };
    },
  ],
];

describe.each(adapters)('storage port: %s', (_name, make) => {
  let storage: StoragePort;
  let close: () => Promise<void>;
  beforeAll(async () => ({ storage, close } = await make()));
  afterAll(() => close?.());

  it('writes, reads, lists and deletes an object', async () => {
    const bytes = Buffer.from('%PDF-1.4 hello');
    expect(await storage.put(Readable.from([bytes]), { key: 'a1.pdf', contentType: 'application/pdf' })).toEqual({ size: bytes.length });
    const got = await storage.get('a1.pdf');
    expect(got?.size).toBe(bytes.length);
    expect(got?.contentType).toBe('application/pdf');
    expect(await text(got!.body)).toEqual(bytes);
    expect(await storage.list()).toEqual(['a1.pdf']);
    await storage.delete('a1.pdf');
    await storage.delete('a1.pdf');
    expect(await storage.get('a1.pdf')).toBeUndefined();
    expect(await storage.list()).toEqual([]);
  });

  it('streams a large object whole (several S3 parts)', async () => {
    const size = 11 * 1024 * 1024 + 123;
    const chunk = Buffer.alloc(64 * 1024, 1);
    const body = Readable.from(
      (function* () {
        let left = size;
        while (left > 0) {
          const n = Math.min(left, chunk.length);
          left -= n;
          yield chunk.subarray(0, n);
        }
      })(),
    );
    expect(await storage.put(body, { key: 'big.mp4', contentType: 'video/mp4' })).toEqual({ size });
    const got = await storage.get('big.mp4');
    expect(got?.size).toBe(size);
    got?.body.destroy();
    await storage.delete('big.mp4');
  });

  it.each([100, 6 * 1024 * 1024])('leaves nothing when the stream fails after %i bytes', async (bytes) => {
    await expect(storage.put(failingAfter(bytes), { key: 'cut.png', contentType: 'image/png' })).rejects.toThrow();
    expect(await storage.get('cut.png')).toBeUndefined();
    expect(await storage.list()).toEqual([]);
  });

  it('refuses keys that could leave its folder or bucket prefix', async () => {
    for (const key of ['../x.png', 'a/b.png', '.hidden', '', '..', 'a\\b.png']) {
      await expect(storage.put(Readable.from([Buffer.from('x')]), { key, contentType: 'image/png' }), key).rejects.toThrow();
      expect(await storage.get(key)).toBeUndefined();
    }
    expect(await storage.list()).toEqual([]);
  });
});
