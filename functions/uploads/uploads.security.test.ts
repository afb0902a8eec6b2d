/**
 * POST /api/upload and GET /uploads/:key, on both databases: the role table (only editors and admins
 * upload), then bad input against the route: too large (by header and while streaming), a wrong type
 * disguised with an image name and header, path traversal in the file name, empty, several files, a
 * connection cut mid-upload. Each is a 4xx in the one error shape and leaves nothing in storage.
 */
import { connect } from 'node:net';
import path from 'node:path';
import { readdir } from 'node:fs/promises';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../tests/support/app.ts';
import type { ErrorAnswer, UploadAnswer } from '../../tests/support/answers.ts';
import { DATABASE_KINDS } from '../../tests/support/databases.ts';
import { tempDir } from '../../tests/support/temp.ts';
import { multipart, PDF, PNG, pngOfSize, type Part } from '../../tests/support/uploads.ts';

const PASSWORD = 'upload table pass';
const CALLERS = ['anonymous', 'free', 'subscriber', 'premium', 'editor', 'admin'] as const;
type Caller = (typeof CALLERS)[number];
const ACCOUNTS = {
  free: ['member', 'free'],
  subscriber: ['member', 'subscriber'],
  premium: ['member', 'premium'],
  editor: ['editor', 'free'],
  admin: ['admin', 'premium'],
} as const;
const MAX = 64 * 1024;

async function setUp(kind: (typeof DATABASE_KINDS)[number]) {
  const dataDir = await tempDir('uploads');
  const t = await createTestApp(kind, undefined, {
    AUTH_BCRYPT_COST: '4',
    EMAIL_WORKER: 'false',
    DATA_DIR: dataDir,
    UPLOAD_MAX_BYTES: String(MAX),
  });
  await t.services.start();
  const tokens = {} as Record<Exclude<Caller, 'anonymous'>, string>;
  for (const [name, [role, level]] of Object.entries(ACCOUNTS) as [
    keyof typeof ACCOUNTS,
    readonly ['member' | 'editor' | 'admin', 'free' | 'subscriber' | 'premium'],
  ][]) {
    const email = `${name}-${kind}@upload-table.test`;
    const id = await t.services.auth.createConfirmedUser(email, PASSWORD, name);
    await t.services.users.assign(id, role, level);
    tokens[name] = (await t.services.auth.signInWithPassword({ email, password: PASSWORD })).access_token;
  }
  const uploadsDir = path.join(dataDir, 'uploads');
  const stored = async () => (await readdir(uploadsDir).catch(() => [] as string[])).sort();
  const auth = (caller: Caller): Record<string, string> => (caller === 'anonymous' ? {} : { authorization: `Bearer ${tokens[caller]}` });
  const upload = (caller: Caller, parts: Part[], headers: Record<string, string> = {}) => {
    const { body, contentType } = multipart(parts);
    return t.app.request('/api/upload', { method: 'POST', headers: { 'content-type': contentType, ...auth(caller), ...headers }, body });
  };
  return { t, tokens, stored, auth, upload, uploadsDir };
}

async function expectError(res: Response, status: number) {
  expect(res.status, await res.clone().text()).toBe(status);
  const body = (await res.json()) as Partial<ErrorAnswer>;
  expect(body.error?.message).toEqual(expect.any(String));
  expect(body.error?.requestId).toBe(res.headers.get('x-request-id'));
}

describe.each(DATABASE_KINDS)('upload roles on %s', (kind) => {
  let s: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => void (s = await setUp(kind)));
  afterAll(() => s?.t.close());

  it.each(CALLERS)('%s', async (caller) => {
    const before = await s.stored();
    const res = await s.upload(caller, [{ field: 'file', filename: 'photo.png', type: 'image/png', body: PNG }]);
    const expected = { anonymous: 401, free: 403, subscriber: 403, premium: 403, editor: 201, admin: 201 }[caller];
    if (expected !== 201) {
      await expectError(res, expected);
      expect(await s.stored()).toEqual(before);
      return;
    }
    expect(res.status).toBe(201);
    const { url } = (await res.json()) as UploadAnswer;
    expect(url).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/);
    // Served back as stored, with headers that keep it from running as a page.
    const served = await s.t.app.request(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
  });

  it('refuses an editor whose session has signed out, storing nothing', async () => {
    const { access_token: token } = await s.t.services.auth.signInWithPassword({
      email: `editor-${kind}@upload-table.test`,
      password: PASSWORD,
    });
    await s.t.services.auth.logout(`Bearer ${token}`, 'local');
    const before = await s.stored();
    const res = await s.upload('anonymous', [{ field: 'file', filename: 'photo.png', type: 'image/png', body: PNG }], {
      authorization: `Bearer ${token}`,
    });
    await expectError(res, 401);
    expect(await s.stored()).toEqual(before);
  });
});

describe('upload bad input', () => {
  let s: Awaited<ReturnType<typeof setUp>>;
  let base: string;
  let server: ServerType;
  beforeAll(async () => {
    s = await setUp('pglite');
    await new Promise<void>((resolve) => {
      server = serve({ fetch: s.t.app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
        base = `http://127.0.0.1:${info.port}`;
        resolve();
      });
    });
  });
  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    await s?.t.close();
  });

  const png = (body: Buffer | string = PNG, filename = 'a.png'): Part => ({ field: 'file', filename, type: 'image/png', body });

  it('accepts a PDF and a PNG; the name comes from the sniffed type, never the client', async () => {
    const pdf = await s.upload('editor', [{ field: 'file', filename: 'report.png', type: 'image/png', body: PDF }]);
    expect(pdf.status).toBe(201);
    expect(((await pdf.json()) as UploadAnswer).url).toMatch(/^\/uploads\/[0-9a-f]{32}\.pdf$/);
    const image = await s.upload('editor', [png(PNG, 'no-extension')]);
    expect(((await image.json()) as UploadAnswer).url).toMatch(/\.png$/);
  });

  it.each([
    ['HTML with a .png name and image/png header', '<!doctype html><html><script>alert(document.cookie)</script></html>'],
    ['SVG with script', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
    ['plain text', 'just some words, not an image'],
    ['a zip archive', Buffer.from('504b030414000000080000000000000000000000000000000000', 'hex')],
  ])('refuses a disguised file: %s', async (_label, body) => {
    const before = await s.stored();
    await expectError(await s.upload('editor', [png(body)]), 415);
    expect(await s.stored()).toEqual(before);
  });

  it.each([
    '../../../etc/passwd.png',
    '..\\..\\windows\\evil.png',
    '/etc/cron.d/x.png',
    'a/../../b.png',
    '.htaccess',
    'x.png;.html',
    'x.png%00.html',
  ])('never uses the client’s path: %j', async (filename) => {
    const before = await s.stored();
    const res = await s.upload('editor', [png(PNG, filename)]);
    expect(res.status).toBe(201);
    const { url } = (await res.json()) as UploadAnswer;
    expect(url).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/);
    const after = await s.stored();
    expect(after.length).toBe(before.length + 1);
    expect(after.every((name) => /^[0-9a-f]{32}\.(png|pdf)$/.test(name))).toBe(true);
  });

  it('refuses a NUL in the part header as malformed, keeping nothing', async () => {
    const before = await s.stored();
    await expectError(await s.upload('editor', [png(PNG, 'x.png\u0000.html')]), 400);
    expect(await s.stored()).toEqual(before);
  });

  it('refuses an oversized file, by its declared length and while streaming, keeping nothing', async () => {
    const before = await s.stored();
    await expectError(await s.upload('editor', [png(pngOfSize(MAX + 1))]), 413);
    // No length sent (chunked): the limit is enforced on the bytes as they arrive.
    const { body, contentType } = multipart([png(pngOfSize(MAX * 3))]);
    const res = await fetch(`${base}/api/upload`, {
      method: 'POST',
      headers: { 'content-type': contentType, ...s.auth('editor') },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < body.length; i += 8192) controller.enqueue(body.subarray(i, i + 8192));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    await expectError(res, 413);
    expect(await s.stored()).toEqual(before);
  });

  it('is not held to the 1 MB API body limit (its own limit applies)', async () => {
    const t2 = await createTestApp('pglite', s.t.database, {
      DATA_DIR: path.dirname(s.uploadsDir),
      EMAIL_WORKER: 'false',
      MAX_BODY_BYTES: '1024',
    });
    const { body, contentType } = multipart([png(pngOfSize(8 * 1024))]);
    const res = await t2.app.request('/api/upload', {
      method: 'POST',
      headers: { 'content-type': contentType, ...s.auth('editor') },
      body,
    });
    expect(res.status, await res.clone().text()).toBe(201);
    await t2.close();
  });

  it('refuses an empty file, a missing file, several files and a file in another field', async () => {
    const before = await s.stored();
    await expectError(await s.upload('editor', [png('')]), 422);
    await expectError(await s.upload('editor', [{ field: 'title', body: 'no file here' }]), 422);
    await expectError(await s.upload('editor', [png(), png(), png()]), 422);
    await expectError(await s.upload('editor', [png(), { field: 'other', filename: 'b.png', type: 'image/png', body: PNG }]), 422);
    await expectError(await s.upload('editor', [{ field: 'avatar', filename: 'b.png', type: 'image/png', body: PNG }]), 422);
    expect(await s.stored()).toEqual(before);
  });

  it('refuses bodies that are not multipart', async () => {
    const before = await s.stored();
    for (const [type, body] of [
      ['image/png', PNG],
      ['application/json', '{"file":"x"}'],
      ['multipart/form-data', 'no boundary'],
      ['multipart/form-data; boundary=zzz', '--yyy\r\nnot a part\r\n'],
    ] as const) {
      const res = await s.t.app.request('/api/upload', { method: 'POST', headers: { 'content-type': type, ...s.auth('editor') }, body });
      expect(res.status, type).toBeGreaterThanOrEqual(400);
      expect(res.status, type).toBeLessThan(500);
    }
    const { body, contentType } = multipart([png()]);
    const res = await s.t.app.request('/api/upload?area=elsewhere', {
      method: 'POST',
      headers: { 'content-type': contentType, ...s.auth('editor') },
      body,
    });
    await expectError(res, 422);
    expect(await s.stored()).toEqual(before);
  });

  it('keeps nothing, not even a partial temp file, when the connection is cut mid-upload', async () => {
    const before = await s.stored();
    const { body, contentType } = multipart([png(pngOfSize(40 * 1024))]);
    const { port } = new URL(base);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(
      `POST /api/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n` +
        `Authorization: ${s.auth('editor').authorization}\r\n\r\n`,
    );
    socket.write(body.subarray(0, 20 * 1024));
    // Wait until the server has started writing the file, then cut.
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && (await s.stored()).length === before.length) await new Promise((r) => setTimeout(r, 10));
    expect((await s.stored()).some((name) => name.startsWith('.partial-'))).toBe(true);
    socket.destroy();
    const settle = Date.now() + 5000;
    while (Date.now() < settle && (await s.stored()).length !== before.length) await new Promise((r) => setTimeout(r, 20));
    expect(await s.stored()).toEqual(before);
  });

  it('serves only names it made', async () => {
    for (const p of ['/uploads/..%2f..%2fpackage.json', '/uploads/.partial-x', '/uploads/nothing.png', '/uploads/%2e%2e']) {
      expect((await s.t.app.request(p)).status, p).toBe(404);
    }
  });
});
