/**
 * The upload service over S3 (s3rver on loopback): public media with and without a public URL,
 * member files into the bucket's protected/ folder (answered as a key the signed-link file service
 * opens, never reachable as media), and the limit enforced while streaming with nothing left behind.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3 } from '../../tests/support/s3.ts';
import { multipart, PDF, PNG, pngOfSize } from '../../tests/support/uploads.ts';
import { createS3Storage } from '../platform/storage/s3.ts';
import { createUploadService } from './service.ts';

describe('upload service', () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  beforeAll(async () => void (s3 = await startS3()));
  const protectedArea = () => createS3Storage({ ...s3.options, prefix: 'protected/' });
  afterAll(() => s3?.close());

  const service = (publicUrl?: string) =>
    createUploadService({
      media: createS3Storage({ ...s3.options, ...(publicUrl ? { publicUrl } : {}), prefix: 'media/' }),
      protectedArea: protectedArea(),
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

  it('puts member files in the protected area, answered as a file key and never as media', async () => {
    const result = await send(service('https://cdn.example.com/'), PDF, 'protected');
    expect(result.url).toMatch(/^uploads\/[0-9a-f]{32}\.pdf$/);
    const name = result.url.slice('uploads/'.length);
    expect(await protectedArea().list()).toEqual([name]);
    expect(await service().open(name)).toBeUndefined();
  });

  it('stops an oversized upload while streaming into S3, leaving nothing in the bucket', async () => {
    const storage = createS3Storage({ ...s3.options, prefix: 'media/' });
    const before = await storage.list();
    await expect(send(service(), pngOfSize(3 * 1024 * 1024))).rejects.toMatchObject({ code: 'payload_too_large' });
    expect(await storage.list()).toEqual(before);
  });
});
