/**
 * The upload service over each storage: public media into the S3 adapter (s3rver on loopback) with
 * and without a public URL, member files into the protected area (answered as a key the signed-link
 * file service opens), and the limit enforced while streaming into S3 with nothing left in the bucket.
 */
import { readdir } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3 } from '../../tests/support/s3.ts';
import { tempDir } from '../../tests/support/temp.ts';
import { multipart, PDF, PNG, pngOfSize } from '../../tests/support/uploads.ts';
import { createLocalStorage } from './local.ts';
import { createS3Storage } from './s3.ts';
import { createUploadService } from './uploads.ts';

describe('upload service', () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  let protectedDir: string;
  beforeAll(async () => {
    s3 = await startS3();
    protectedDir = await tempDir('protected');
  });
  afterAll(() => s3?.close());

  const service = (publicUrl?: string) =>
    createUploadService({
      media: createS3Storage({ ...s3.options, ...(publicUrl ? { publicUrl } : {}), prefix: 'media/' }),
      protectedArea: createLocalStorage({ dir: protectedDir }),
      protectedPrefix: 'uploads/',
      mediaPath: '/uploads',
      maxBytes: 1024 * 1024,
    });
  const send = (uploads: ReturnType<typeof service>, body: Buffer, area: 'public' | 'protected' = 'public') => {
    const form = multipart([{ field: 'file', filename: 'x.png', type: 'image/png', body }]);
    return uploads.receive(Readable.from([form.body]), form.contentType, area);
  };

  it('stores public media in the bucket and answers where browsers fetch it', async () => {
    const through = await send(service(), PNG);
    expect(through.url).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/);
    const key = through.url.slice('/uploads/'.length);
    const opened = await service().open(key);
    expect(opened?.contentType).toBe('image/png');
    opened?.body.destroy();
    const direct = await send(service('https://cdn.example.com/'), PDF);
    expect(direct).toMatchObject({ type: 'application/pdf', size: PDF.length });
    expect(direct.url).toMatch(/^https:\/\/cdn\.example\.com\/media\/[0-9a-f]{32}\.pdf$/);
  });

  it('puts member files in the protected area, answered as a file key', async () => {
    const result = await send(service(), PDF, 'protected');
    expect(result.url).toMatch(/^uploads\/[0-9a-f]{32}\.pdf$/);
    expect(await readdir(protectedDir)).toEqual([result.url.slice('uploads/'.length)]);
  });

  it('stops an oversized upload while streaming into S3, leaving nothing in the bucket', async () => {
    const storage = createS3Storage({ ...s3.options, prefix: 'media/' });
    const before = await storage.list();
    await expect(send(service(), pngOfSize(3 * 1024 * 1024))).rejects.toMatchObject({ code: 'payload_too_large' });
    expect(await storage.list()).toEqual(before);
  });
});
