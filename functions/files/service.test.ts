/**
 * Signed file links: a key resolves to a file inside the files folder only, or to a member upload
 * read through the storage port (whole or one byte range); an outside https URL redirects only to a
 * host on the allow-list (DOWNLOAD_HOSTS), checked when the link is opened, so a link signed before
 * the list changed (or under another list) sends no one elsewhere.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../tests/support/temp.ts';
import { createErrorHandler } from '../platform/errors.ts';
import type { AppEnv } from '../platform/http/context.ts';
import { createAccessLog } from '../platform/http/access-log.ts';
import { createLogger } from '../platform/logger.ts';
import { requestContext } from '../platform/http/middleware.ts';
import { createTokens } from '../platform/tokens.ts';
import { createLocalStorage } from '../platform/storage/local.ts';
import { createFileRoutes } from './routes.ts';
import { createFileService } from './service.ts';

const tokens = createTokens(new TextEncoder().encode('f'.repeat(48)));
const SITE = 'http://localhost:4321';

describe('file service', () => {
  let filesDir: string;
  beforeAll(async () => {
    filesDir = await tempDir('files');
    await mkdir(path.join(filesDir, 'downloads'));
    await writeFile(path.join(filesDir, 'downloads', 'kit.csv'), 'a,b\n1,2\n');
  });
  const service = (downloadHosts?: string[]) =>
    createFileService({ tokens, filesDir, siteUrl: SITE, ...(downloadHosts ? { downloadHosts } : {}) });
  const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

  it('resolves a key inside the files folder, and nothing outside it', async () => {
    const files = service();
    const found = await files.resolve(tokenOf(await files.link('downloads/kit.csv', 60)));
    expect(found).toMatchObject({ kind: 'file', name: 'kit.csv', size: 8, inline: false });
    await expect(files.resolve(tokenOf(await files.link('../package.json', 60)))).rejects.toMatchObject({ code: 'not_found' });
  });

  it('reads member uploads through the storage port, whole and by range, never another folder', async () => {
    const storage = createLocalStorage({ dir: await tempDir('protected') });
    const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 256));
    await storage.put(Readable.from([bytes]), { key: 'abc.mp4', contentType: 'video/mp4' });
    const files = createFileService({ tokens, filesDir, siteUrl: SITE, uploads: { prefix: 'uploads/', storage } });
    const app = new Hono<AppEnv>();
    app.use(requestContext({ accessLog: createAccessLog(undefined, false), logger: createLogger('silent'), trustProxy: 0 }));
    app.route('/api/files', createFileRoutes(files));
    app.onError(createErrorHandler(createLogger('silent')));
    const url = new URL(await files.mediaUrl('uploads/abc.mp4', 60));
    const whole = await app.request(url.pathname + url.search);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(bytes);
    const part = await app.request(url.pathname + url.search, { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 100-199/3000');
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(100, 200));
    expect((await app.request(url.pathname + url.search, { headers: { range: 'bytes=5000-' } })).status).toBe(416);
    for (const key of ['uploads/../downloads/kit.csv', 'uploads/missing.mp4', 'uploads/a/b.mp4']) {
      await expect(files.resolve(tokenOf(await files.link(key, 60))), key).rejects.toMatchObject({ code: 'not_found' });
    }
  });

  it('redirects an outside download only to a listed host', async () => {
    const files = service(['files.example.com']);
    const link = async (url: string) => tokenOf(await files.link(url, 60));
    expect(await files.resolve(await link('https://files.example.com/kit.zip'))).toEqual({
      kind: 'redirect',
      url: 'https://files.example.com/kit.zip',
    });
    for (const url of [
      'https://evil.example/kit.zip',
      'https://files.example.com.evil.example/kit.zip',
      'https://files.example.com@evil.example/kit.zip',
      'https://user:pass@files.example.com/kit.zip',
      'https://evil.example\\@files.example.com/kit.zip',
      'https://',
    ]) {
      await expect(files.resolve(await link(url)), url).rejects.toMatchObject({ code: 'not_found' });
    }
  });

  it('redirects nowhere by default, and re-checks links signed before the list changed', async () => {
    const before = service(['files.example.com']);
    const token = tokenOf(await before.link('https://files.example.com/kit.zip', 60));
    await expect(service().resolve(token)).rejects.toMatchObject({ code: 'not_found' });
    await expect(service(['cdn.example.org']).resolve(token)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('the download route answers 404, never a redirect, for an unlisted host', async () => {
    const files = service(['files.example.com']);
    const app = new Hono<AppEnv>().route('/api/files', createFileRoutes(files));
    app.onError(createErrorHandler(createLogger('silent')));
    const open = async (url: string) => app.request(`/api/files/download?token=${tokenOf(await files.link(url, 60))}`);
    const ok = await open('https://files.example.com/kit.zip');
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toBe('https://files.example.com/kit.zip');
    const refused = await open('https://evil.example/kit.zip');
    expect(refused.status).toBe(404);
    expect(refused.headers.get('location')).toBeNull();
  });
});
