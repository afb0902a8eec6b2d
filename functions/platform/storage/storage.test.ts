/**
 * The storage port's contract, run against both adapters: local disk, and S3 against a real
 * S3-compatible server (s3rver) on loopback. A write is whole or absent: a stream that fails
 * mid-way leaves nothing under the key and no partial file behind. Reads take one byte range (the
 * signed-link file service's video seeking: S3 GetObject with Range), and the bucket presigns PUTs.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3 } from '../../../tests/support/s3.ts';
import { tempDir } from '../../../tests/support/temp.ts';
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

  it('reads one byte range, knowing the whole size, and stats without reading', async () => {
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
    await storage.put(Readable.from([bytes]), { key: 'r1.mp4', contentType: 'video/mp4' });
    expect(await storage.stat('r1.mp4')).toEqual({ size: 5000, contentType: 'video/mp4' });
    const middle = await storage.get('r1.mp4', { start: 1000, end: 1099 });
    expect(middle?.size).toBe(5000);
    expect(await text(middle!.body)).toEqual(bytes.subarray(1000, 1100));
    // A range running past the end stops at the end.
    expect(await text((await storage.get('r1.mp4', { start: 4990, end: 9999 }))!.body)).toEqual(bytes.subarray(4990));
    expect(await storage.stat('missing.mp4')).toBeUndefined();
    expect(await storage.get('missing.mp4', { start: 0, end: 9 })).toBeUndefined();
    expect(await storage.stat('../r1.mp4')).toBeUndefined();
    await storage.delete('r1.mp4');
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

describe('storage port: presigned PUTs to the bucket', () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  beforeAll(async () => void (s3 = await startS3()));
  afterAll(() => s3?.close());

  it('signs a PUT for one key, type and length, which a browser sends without the app', async () => {
    const storage = createS3Storage({ ...s3.options, prefix: 'protected/', directUploads: true });
    const bytes = Buffer.from('%PDF-1.4 straight to the bucket');
    const put = await storage.presignPut!('p1.pdf', { contentType: 'application/pdf', size: bytes.length, expiresInSeconds: 60 });
    const signed = new URL(put.url);
    expect(signed.pathname).toBe(`/${s3.bucket}/protected/p1.pdf`);
    expect(signed.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(expect.arrayContaining(['content-length', 'content-type']));
    expect(put.headers).toEqual({ 'content-type': 'application/pdf' });
    expect((await fetch(put.url, { method: 'PUT', headers: put.headers, body: bytes })).status).toBe(200);
    expect(await storage.stat('p1.pdf')).toEqual({ size: bytes.length, contentType: 'application/pdf' });
  });

  it('offers no presigned PUT unless direct uploads are on, nor on local disk', async () => {
    expect(createS3Storage(s3.options).presignPut).toBeUndefined();
    expect(createLocalStorage({ dir: await tempDir('storage') }).presignPut).toBeUndefined();
  });
});
