import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../tests/support/temp.ts';
import { AppError } from '../errors.ts';
import { createLocalStorage } from './local.ts';
import { storeSniffed } from './sniffed.ts';

const MP4 = readFileSync(path.resolve(import.meta.dirname, '../../../content/files/media/growth-dashboard-tour.mp4'));
const options = {
  allowed: (mime: string) => mime.startsWith('video/') || mime.startsWith('image/'),
  refusal: 'Not a video or an image.',
  field: 'file',
  tooLarge: () => new AppError('payload_too_large', 'Too large.'),
};

describe('storeSniffed', () => {
  it('stores a real MP4 under its sniffed type', async () => {
    const dir = await tempDir('sniffed');
    const saved = await storeSniffed(Readable.from([MP4]), createLocalStorage({ dir }), options);
    expect(saved).toMatchObject({ type: 'video/mp4', size: MP4.length });
    expect(saved.key).toMatch(/^[0-9a-f]{32}\.mp4$/);
  });

  it('refuses a web page dressed as MP4 (an `ftyp` whose box size is not a box) and keeps nothing', async () => {
    const dir = await tempDir('sniffed');
    const page = Buffer.from(`<!--ftypisom--><html><body><script>alert(document.domain)</script></body></html>`);
    const stored = storeSniffed(Readable.from([page]), createLocalStorage({ dir }), options);
    await expect(stored).rejects.toMatchObject({ code: 'unsupported_media_type' });
    expect(await readdir(dir)).toEqual([]);
    // The same page behind a sane first box but a box size past the bytes read is refused too.
    const huge = Buffer.concat([Buffer.from([0, 0, 0x20, 0]), MP4.subarray(4, 64)]);
    await expect(storeSniffed(Readable.from([huge]), createLocalStorage({ dir }), options)).rejects.toMatchObject({
      code: 'unsupported_media_type',
    });
  });
});
