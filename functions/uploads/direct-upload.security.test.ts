/**
 * Uploads on a bucket (s3rver on loopback), as production runs them: the role table of the
 * direct-upload routes on both databases; the presign → PUT → complete path for each area and every
 * refusal (a type or size the registration refuses, a file whose bytes or stored type lie about the
 * registered type, a size lie, a file not sent yet, an unknown key, another member's key, members,
 * a signed-out token), each leaving nothing in the bucket; abandoned registrations pruned with their
 * objects; and two instances on one database and one bucket, where a protected upload made through
 * one is served through the other by a signed link, byte ranges included.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/support/app.ts';
import type { CompletedUploadAnswer, ErrorAnswer, UploadAnswer } from '../../tests/support/answers.ts';
import { DATABASE_KINDS, openTestDatabase } from '../../tests/support/databases.ts';
import { startS3 } from '../../tests/support/s3.ts';
import { tempDir } from '../../tests/support/temp.ts';
import { multipart, PDF, PNG, pngOfSize } from '../../tests/support/uploads.ts';
import { createS3Storage } from '../platform/storage/s3.ts';
import type { UploadOffer } from './direct.ts';

const PASSWORD = 'direct upload pass';
const MAX = 64 * 1024;
type S3 = Awaited<ReturnType<typeof startS3>>;

const bucketEnv = (s3: S3) => ({
  S3_BUCKET: s3.bucket,
  S3_ENDPOINT: s3.endpoint,
  S3_ACCESS_KEY_ID: 'S3RVER',
  S3_SECRET_ACCESS_KEY: 'S3RVER',
  UPLOAD_MAX_BYTES: String(MAX),
  AUTH_BCRYPT_COST: '4',
  EMAIL_WORKER: 'false',
});

/** Members of each kind with their bearer headers. */
async function accounts(t: TestApp, tag: string) {
  const make = async (name: string, role: 'member' | 'editor' | 'admin', level: 'free' | 'premium') => {
    const email = `${name}-${tag}@direct-upload.test`;
    const id = await t.services.auth.createConfirmedUser(email, PASSWORD, name);
    await t.services.users.assign(id, role, level);
    const { access_token: token } = await t.services.auth.signInWithPassword({ email, password: PASSWORD });
    return { id, email, headers: { authorization: `Bearer ${token}` } };
  };
  return {
    premium: await make('premium', 'member', 'premium'),
    editor: await make('editor', 'editor', 'free'),
    admin: await make('admin', 'admin', 'premium'),
  };
}

const json = (t: TestApp, path: string, headers: Record<string, string>, body: unknown) =>
  t.app.request(path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });

type Offer = Extract<UploadOffer, { direct: true }>;

describe.each(DATABASE_KINDS)('direct upload roles on %s', (kind) => {
  let s3: S3;
  let t: TestApp;
  let who: Awaited<ReturnType<typeof accounts>>;
  beforeAll(async () => {
    s3 = await startS3();
    t = await createTestApp(kind, undefined, { ...bucketEnv(s3), DATA_DIR: await tempDir('direct') });
    who = await accounts(t, kind);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });
  const headersOf = (caller: 'anonymous' | 'premium' | 'editor' | 'admin') => (caller === 'anonymous' ? {} : who[caller].headers);

  it.each([
    ['anonymous', 401],
    ['premium', 403],
    ['editor', 201],
    ['admin', 201],
  ] as const)('presign and complete: %s gets %i', async (caller, status) => {
    const offer = await json(t, '/api/upload/presign', headersOf(caller), { area: 'public', contentType: 'image/png', size: PNG.length });
    expect(offer.status).toBe(status);
    if (status !== 201) {
      // Completing a key somebody else registered is refused the same way.
      const other = (await (
        await json(t, '/api/upload/presign', who.admin.headers, { contentType: 'image/png', size: 10 })
      ).json()) as Offer;
      expect((await json(t, '/api/upload/complete', headersOf(caller), { key: other.key })).status).toBe(status);
      return;
    }
    const { key, url, headers } = (await offer.json()) as Offer;
    expect((await fetch(url, { method: 'PUT', headers, body: PNG })).status).toBe(200);
    const done = await json(t, '/api/upload/complete', headersOf(caller), { key });
    expect(done.status).toBe(201);
    expect(await done.json()).toEqual({ url: `/uploads/${key}` });
  });
});

describe('direct uploads to the bucket', () => {
  let s3: S3;
  let t: TestApp;
  let who: Awaited<ReturnType<typeof accounts>>;
  const media = () => createS3Storage(s3.options);
  const member = () => createS3Storage({ ...s3.options, prefix: 'protected/' });
  beforeAll(async () => {
    s3 = await startS3();
    t = await createTestApp('pglite', undefined, { ...bucketEnv(s3), DATA_DIR: await tempDir('direct') });
    who = await accounts(t, 'bucket');
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const presign = async (body: Record<string, unknown>, headers: Record<string, string> = who.editor.headers) =>
    json(t, '/api/upload/presign', headers, body);
  const register = async (body: Record<string, unknown>) => {
    const res = await presign(body);
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Offer;
  };
  const complete = (key: string, headers: Record<string, string> = who.editor.headers) => json(t, '/api/upload/complete', headers, { key });
  const put = (offer: Offer, body: Buffer, headers = offer.headers) =>
    fetch(offer.url, { method: 'PUT', headers, body: new Uint8Array(body) });

  it('takes a public image and a member file straight to the bucket, checked when completed', async () => {
    const image = await register({ area: 'public', contentType: 'image/png', size: PNG.length });
    expect(image.key).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(new URL(image.url).origin).toBe(s3.endpoint);
    expect((await put(image, PNG)).status).toBe(200);
    const { url } = (await (await complete(image.key)).json()) as CompletedUploadAnswer;
    const served = await t.app.request(url);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    // A second completion (a retried request, another instance) answers the same.
    expect(await (await complete(image.key)).json()).toEqual({ url });

    const file = await register({ area: 'protected', contentType: 'application/pdf', size: PDF.length });
    expect(new URL(file.url).pathname).toBe(`/${s3.bucket}/protected/${file.key}`);
    await put(file, PDF);
    expect(await (await complete(file.key)).json()).toEqual({ url: `uploads/${file.key}` });
    expect(await member().list()).toContain(file.key);
    // Never media: the public route does not reach the protected folder.
    expect((await t.app.request(`/uploads/${file.key}`)).status).toBe(404);
  });

  it('refuses at registration what it would never keep, before any byte is sent', async () => {
    const before = await media().list();
    for (const [body, status] of [
      [{ contentType: 'text/html', size: 10 }, 415],
      [{ contentType: 'image/svg+xml', size: 10 }, 415],
      [{ contentType: 'application/zip', size: 10 }, 415],
      [{ contentType: 'image/png', size: MAX + 1 }, 413],
      [{ contentType: 'image/png', size: 0 }, 422],
      [{ contentType: 'image/png', size: 1.5 }, 422],
      [{ contentType: 'image/png' }, 422],
      [{ contentType: 'image/png', size: 10, area: 'elsewhere' }, 422],
      [{ contentType: 'image/png', size: 10, key: '../x.png' }, 422],
    ] as const) {
      const res = await presign(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(((await res.json()) as ErrorAnswer).error.message).toEqual(expect.any(String));
    }
    expect(await media().list()).toEqual(before);
  });

  it.each([
    ['bytes that are not the registered type', PDF, { 'content-type': 'image/png' }],
    [
      'HTML sent as an image',
      Buffer.from('<!doctype html><script>alert(1)</script>'.padEnd(PNG.length, ' ')),
      { 'content-type': 'image/png' },
    ],
    ['a stored type other than the one registered', PNG, { 'content-type': 'text/html' }],
  ])('deletes a file whose type lies (%s) and answers 415', async (_label, body, headers) => {
    const offer = await register({ contentType: 'image/png', size: body.length });
    // A bucket that checks signed headers refuses the PUT itself; one that does not (s3rver) stores it.
    await put(offer, body, headers);
    const res = await complete(offer.key);
    expect(res.status).toBe(415);
    expect(await media().stat(offer.key)).toBeUndefined();
    expect((await complete(offer.key)).status).toBe(404);
  });

  it('deletes a file whose size is not the registered one and answers 422', async () => {
    const offer = await register({ contentType: 'image/png', size: 2048 });
    await put(offer, pngOfSize(4096));
    const res = await complete(offer.key);
    expect(res.status).toBe(422);
    expect(((await res.json()) as ErrorAnswer).error.fields).toHaveProperty('size');
    expect(await media().stat(offer.key)).toBeUndefined();
  });

  it('answers 409 for a file not sent yet, then completes once it has arrived', async () => {
    const offer = await register({ contentType: 'image/png', size: PNG.length });
    expect((await complete(offer.key)).status).toBe(409);
    await put(offer, PNG);
    expect((await complete(offer.key)).status).toBe(201);
  });

  it('knows only keys the caller registered, and only for staff from a live session', async () => {
    const offer = await register({ contentType: 'image/png', size: PNG.length });
    await put(offer, PNG);
    expect((await complete('0123456789abcdef0123456789abcdef.png')).status).toBe(404);
    expect((await complete(offer.key, who.admin.headers)).status).toBe(404);
    expect((await complete(offer.key, who.premium.headers)).status).toBe(403);
    expect((await complete(offer.key, {})).status).toBe(401);
    const { access_token: token } = await t.services.auth.signInWithPassword({ email: who.editor.email, password: PASSWORD });
    await t.services.auth.logout(`Bearer ${token}`, 'local');
    const signedOut = { authorization: `Bearer ${token}` };
    expect((await complete(offer.key, signedOut)).status).toBe(401);
    expect((await presign({ contentType: 'image/png', size: 10 }, signedOut)).status).toBe(401);
    // Still the editor's to complete.
    expect((await complete(offer.key)).status).toBe(201);
  });

  it('prunes registrations never completed, with whatever was sent for them', async () => {
    const offer = await register({ contentType: 'image/png', size: PNG.length });
    await put(offer, PNG);
    const kept = await register({ contentType: 'image/png', size: PNG.length });
    await t.database.db.execute(sql`update upload_registrations set created_at = now() - interval '7 hours' where key = ${offer.key}`);
    expect(await t.services.directUploads.prune()).toBe(1);
    expect(await media().stat(offer.key)).toBeUndefined();
    expect((await complete(offer.key)).status).toBe(404);
    expect((await complete(kept.key)).status).toBe(409);
  });
});

describe('uploads shared by two instances (one database, one bucket)', () => {
  let s3: S3;
  let a: TestApp;
  let b: TestApp;
  let editor: Record<string, string>;
  beforeAll(async () => {
    s3 = await startS3();
    const database = await openTestDatabase('postgres');
    // Each instance has its own DATA_DIR, as two machines would: nothing they share is on either disk.
    a = await createTestApp('postgres', database, { ...bucketEnv(s3), DATA_DIR: await tempDir('instance-a') });
    b = await createTestApp('postgres', database, { ...bucketEnv(s3), DATA_DIR: await tempDir('instance-b') });
    editor = (await accounts(a, 'shared')).editor.headers;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await a?.database.close();
    await s3?.close();
  });

  it('serves a member file uploaded through one instance through the other, byte ranges included', async () => {
    const bytes = Buffer.concat([PDF, Buffer.alloc(3000, 7)]);
    const form = multipart([{ field: 'file', filename: 'kit.pdf', type: 'application/pdf', body: bytes }]);
    const posted = await a.app.request('/api/upload?area=protected', {
      method: 'POST',
      headers: { ...editor, 'content-type': form.contentType },
      body: form.body,
    });
    expect(posted.status).toBe(201);
    const { url: key } = (await posted.json()) as UploadAnswer;
    const link = new URL(await a.services.downloads.mediaUrl(key, 60));
    const whole = await b.app.request(link.pathname + link.search);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(bytes);
    const part = await b.app.request(link.pathname + link.search, { headers: { range: 'bytes=-100' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes ${bytes.length - 100}-${bytes.length - 1}/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(-100));
  });

  it('completes on one instance what was registered on the other, and serves public media from either', async () => {
    const offer = (await (await json(a, '/api/upload/presign', editor, { contentType: 'image/png', size: PNG.length })).json()) as Offer;
    await fetch(offer.url, { method: 'PUT', headers: offer.headers, body: PNG });
    const { url } = (await (await json(b, '/api/upload/complete', editor, { key: offer.key })).json()) as CompletedUploadAnswer;
    for (const t of [a, b]) expect(Buffer.from(await (await t.app.request(url)).arrayBuffer())).toEqual(PNG);
    const ranged = await b.app.request(url, { headers: { range: 'bytes=0-7' } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(PNG.subarray(0, 8));
  });
});
