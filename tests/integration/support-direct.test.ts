/**
 * Support attachments sent straight to the bucket (s3rver on loopback), as a serverless deployment
 * needs them (a function takes at most 6 MB of body): a member asks where to send a file, PUTs it
 * there, and the JSON message names it; the server checks what arrived before the message keeps it.
 * Every refusal is a 4xx that leaves no file behind: a type or size the desk does not take, bytes that
 * are not what was declared, a file not sent yet, another member's file, one already attached, a
 * malformed reference; and a reply refused before its body is read takes nothing.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACHMENT_MAX_BYTES } from '#shared/support/targets.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import type { ErrorAnswer } from '../support/answers.ts';
import { DATABASE_KINDS } from '../support/databases.ts';
import { signedInMember } from '../support/events.ts';
import { startS3 } from '../support/s3.ts';
import { tempDir } from '../support/temp.ts';
import { PDF, PNG } from '../support/uploads.ts';

type S3 = Awaited<ReturnType<typeof startS3>>;
type Offer = { direct: true; key: string; url: string; headers: Record<string, string> };

describe.each(DATABASE_KINDS)('support attachments straight to the bucket on %s', (kind) => {
  let s3: S3;
  let t: TestApp;
  let member: Awaited<ReturnType<typeof signedInMember>>;
  let other: Awaited<ReturnType<typeof signedInMember>>;

  beforeAll(async () => {
    s3 = await startS3('support-direct');
    t = await createTestApp(kind, undefined, {
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      AUTH_BCRYPT_COST: '4',
      EMAIL_WORKER: 'false',
      DATA_DIR: await tempDir('support-direct'),
    });
    member = await signedInMember(t, `member-${kind}@support-direct.test`, 'member', 'premium');
    other = await signedInMember(t, `other-${kind}@support-direct.test`, 'member', 'free');
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const post = (who: { headers: Record<string, string> }, path: string, body: unknown) =>
    t.app.request(path, { method: 'POST', headers: { ...who.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  /** Where to send a file of this type and size (the offer), for `who`. */
  async function offer(who = member, contentType = 'image/png', size = PNG.length): Promise<Offer> {
    const res = await post(who, '/api/support/attachments', { contentType, size });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Offer;
  }
  const put = (to: Offer, bytes: Buffer) => fetch(to.url, { method: 'PUT', headers: to.headers, body: new Uint8Array(bytes) });
  /** Whether the bucket holds the object of `key` in support's area. */
  const inBucket = async (key: string) => (await t.services.supportAttachments.stat(key)) !== undefined;
  const open = (who: { headers: Record<string, string> }, attachment: unknown) =>
    post(who, '/api/support/requests', { subject: 'A screenshot', message: 'See the attached screen.', attachment });

  it('keeps a file sent straight to the bucket with the message that names it, once', async () => {
    const to = await offer();
    expect(to.direct).toBe(true);
    expect((await put(to, PNG)).status).toBe(200);
    const opened = await open(member, { key: to.key, name: 'screen\u202egnp.exe' });
    expect(opened.status, await opened.clone().text()).toBe(201);
    const { id } = (await opened.json()) as { id: string };
    const read = (await (await t.app.request(`/api/support/requests/${id}`, { headers: member.headers })).json()) as {
      messages: { id: string; attachment?: { name: string; type: string; size: number } }[];
    };
    // The name as shown: invisible direction characters gone, the bytes' extension added.
    expect(read.messages[0]!.attachment).toEqual({ name: 'screengnp.exe.png', type: 'image/png', size: PNG.length });
    const file = await t.app.request(`/api/support/requests/${id}/messages/${read.messages[0]!.id}/attachment`, {
      headers: member.headers,
    });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(PNG);
    // Taken once: a second message, the owner's or anyone else's, cannot name it again.
    for (const who of [member, other]) {
      const again = await open(who, { key: to.key, name: 'again.png' });
      expect(again.status).toBe(422);
      expect(((await again.json()) as ErrorAnswer).error.fields).toHaveProperty('attachment');
    }
    // What is kept is a copy under a new key: the PUT URL, valid a while longer, cannot change it.
    expect(await inBucket(to.key)).toBe(false);
    expect((await put(to, Buffer.alloc(PNG.length, 0x41))).status).toBe(200);
    const again = await t.app.request(`/api/support/requests/${id}/messages/${read.messages[0]!.id}/attachment`, {
      headers: member.headers,
    });
    expect(Buffer.from(await again.arrayBuffer())).toEqual(PNG);
    // And what that late PUT left at the old key goes with the registration when it is pruned.
    await t.database.db.execute(sql`update upload_registrations set created_at = now() - interval '7 hours' where key = ${to.key}`);
    expect(await t.services.directUploads.prune()).toBeGreaterThanOrEqual(1);
    expect(await inBucket(to.key)).toBe(false);
  });

  it("refuses another member's file, a file not sent yet, and a malformed reference", async () => {
    const theirs = await offer(other);
    await put(theirs, PNG);
    expect((await open(member, { key: theirs.key, name: 'theirs.png' })).status).toBe(422);
    // Still theirs to attach.
    expect((await open(other, { key: theirs.key, name: 'mine.png' })).status).toBe(201);

    const unsent = await offer();
    const early = await open(member, { key: unsent.key, name: 'early.png' });
    expect(early.status).toBe(409);
    for (const attachment of [
      { key: '../../etc/passwd', name: 'x' },
      { key: unsent.key },
      { key: unsent.key, name: 'x', extra: 1 },
      'a-string',
    ])
      expect((await open(member, attachment)).status, JSON.stringify(attachment)).toBe(422);
  });

  it('checks the bytes that arrived: another type or another size is refused and deleted', async () => {
    const lie = await offer(member, 'image/png', PDF.length);
    // The bucket takes what the presigned PUT allows (the declared type and length); the bytes are a PDF.
    expect((await put(lie, PDF)).status).toBe(200);
    const refused = await open(member, { key: lie.key, name: 'lie.png' });
    expect(refused.status).toBe(415);
    expect(await inBucket(lie.key)).toBe(false);
  });

  it('refuses at the offer what the desk would never take, before any byte is sent', async () => {
    const cases: [unknown, number][] = [
      [{ contentType: 'text/html', size: 100 }, 415],
      [{ contentType: 'image/png', size: ATTACHMENT_MAX_BYTES + 1 }, 413],
      [{ contentType: 'image/png', size: 0 }, 422],
      [{ contentType: 'image/png' }, 422],
      [{ contentType: 'not a type', size: 10 }, 422],
      [{ contentType: 'image/png', size: 10, area: 'public' }, 422],
    ];
    for (const [body, status] of cases)
      expect((await post(member, '/api/support/attachments', body)).status, JSON.stringify(body)).toBe(status);
    expect((await t.app.request('/api/support/attachments', { method: 'POST', body: '{}' })).status).toBe(401);
  });

  it("takes nothing for a reply to someone else's request, and the file for the member's own", async () => {
    const to = await offer();
    await put(to, PNG);
    // A reply to a request that is not the member's: refused before the body is read, so nothing is taken.
    const theirs = (await (await open(other, undefined)).json()) as { id: string };
    const reply = await post(member, `/api/support/requests/${theirs.id}/messages`, {
      body: 'Mine now',
      attachment: { key: to.key, name: 'a.png' },
    });
    expect(reply.status).toBe(404);
    expect(await inBucket(to.key)).toBe(true);
    // Its own request's reply takes it.
    const own = (await (await open(member, undefined)).json()) as { id: string };
    const ok = await post(member, `/api/support/requests/${own.id}/messages`, {
      body: 'Here it is',
      attachment: { key: to.key, name: 'a.png' },
    });
    expect(ok.status, await ok.clone().text()).toBe(201);
  });
});
