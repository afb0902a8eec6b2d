/**
 * The support desk end to end through the API, the outbox and the storage port, on PGlite and
 * Postgres: staff's queue (Priority first, then the oldest, in cursor pages), first-response targets
 * in business days across a weekend, assignment, the status a reply or staff set, staff's reply mailed
 * to the member with a link back and never an internal note, staff's notice of a new request,
 * attachments (type from the bytes, the size limit, download by the member and staff only, never
 * through a media URL or a signed file link), the member's export, and an account deletion that takes
 * the requests and their attachments with it. Who may call what is support.security.test.ts's.
 */
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { hc, InferResponseType } from 'hono/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emails } from '../../functions/email/tables.ts';
import { createSupportService, MAX_MEMBER_MESSAGES } from '../../functions/support/service.ts';
import type { SupportRoutes } from '../../functions/support/routes.ts';
import { supportMessages, supportRequests } from '../../functions/support/tables.ts';
import { profiles } from '../../functions/users/tables.ts';
import { ATTACHMENT_MAX_BYTES } from '#shared/support/targets.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { DATABASE_KINDS } from '../support/databases.ts';
import { signedInMember } from '../support/events.ts';
import { tempDir } from '../support/temp.ts';
import { multipart, PDF, PNG, pngOfSize, type Part } from '../support/uploads.ts';

type Client = ReturnType<typeof hc<SupportRoutes>>;
type ListAnswer = InferResponseType<Client['requests']['$get']>;
type RequestAnswer = InferResponseType<Client['requests'][':id']['$get'], 200>;
type Member = Awaited<ReturnType<typeof signedInMember>>;

const INBOX = 'hello@beacongrowth.co';

describe.each(DATABASE_KINDS)('support desk on %s', (kind) => {
  let t: TestApp;
  let admin: Member;
  let editor: Member;
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', DATA_DIR: await tempDir(`support-${kind}`) });
    admin = await signedInMember(t, `admin-${kind}@desk.test`, 'admin', 'premium');
    editor = await signedInMember(t, `editor-${kind}@desk.test`, 'editor', 'premium');
  });
  afterAll(() => t?.close());

  const member = (level: 'free' | 'subscriber' | 'premium') => signedInMember(t, `${level}-${(n += 1)}-${kind}@desk.test`, 'member', level);
  function call(who: Member, path: string, method = 'GET', body?: unknown) {
    return t.app.request(path, {
      method,
      headers: { ...who.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }
  const send = (who: Member, path: string, parts: Part[]) => {
    const form = multipart(parts);
    return t.app.request(path, {
      method: 'POST',
      headers: { ...who.headers, 'content-type': form.contentType },
      body: new Uint8Array(form.body),
    });
  };
  async function open(who: Member, subject: string, message = 'Please help.') {
    const res = await call(who, '/api/support/requests', 'POST', { subject, message });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }
  const read = async (who: Member, id: string) => (await (await call(who, `/api/support/requests/${id}`)).json()) as RequestAnswer;
  const mailsTo = (to: string, template: string) =>
    t.database.db
      .select()
      .from(emails)
      .where(and(eq(emails.to, to), eq(emails.template, template)));
  const stored = () => t.services.supportAttachments.stat;

  it('orders the queue Priority first, then the oldest, in cursor pages, and filters by status', async () => {
    const marker = `queue-${kind}-${Date.now()}`;
    const opened: { id: string; level: string }[] = [];
    for (const level of ['free', 'premium', 'subscriber', 'premium', 'free'] as const) {
      opened.push({ id: await open(await member(level), `${marker} ${level}`), level });
    }
    const pages: ListAnswer['requests'][] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const res = await call(admin, `/api/support/requests?status=open&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      const page = (await res.json()) as ListAnswer;
      pages.push(page.requests);
      cursor = page.nextCursor;
    }
    expect(pages.every((p) => p.length <= 2)).toBe(true);
    const ours = pages.flat().filter((r) => r.subject.startsWith(marker));
    const premium = opened.filter((o) => o.level === 'premium').map((o) => o.id);
    const others = opened.filter((o) => o.level !== 'premium').map((o) => o.id);
    expect(ours.map((r) => r.id)).toEqual([...premium, ...others]);
    expect(ours.map((r) => r.priority)).toEqual([true, true, false, false, false]);
    // Every Priority request of the whole queue comes before every other one.
    const flat = pages.flat();
    expect(flat.findIndex((r) => !r.priority)).toBeGreaterThan(flat.findLastIndex((r) => r.priority));
    // Staff see who opened each; an answered one leaves the "open" list for "waiting".
    expect(ours[0]!.member?.email).toMatch(/^premium-/);
    await call(admin, `/api/support/requests/${premium[0]}/messages`, 'POST', { body: 'On it.' });
    const open_ = (await (await call(admin, '/api/support/requests?status=open&limit=100')).json()) as ListAnswer;
    const waiting = (await (await call(admin, '/api/support/requests?status=waiting&limit=100')).json()) as ListAnswer;
    expect(open_.requests.map((r) => r.id)).not.toContain(premium[0]);
    expect(waiting.requests.map((r) => r.id)).toContain(premium[0]);
    expect((await call(admin, '/api/support/requests?cursor=bm90LWEtY3Vyc29y')).status).toBe(422);
  });

  it('sets the first-response target in business days at opening, across a weekend', async () => {
    // Friday 27 November 2026, 15:00 in New York.
    const friday = new Date('2026-11-27T20:00:00Z');
    const desk = createSupportService({
      db: t.database.db,
      outbox: t.services.outbox,
      limiter: t.services.limiter,
      attachments: t.services.supportAttachments,
      siteUrl: t.config.siteUrl,
      clock: () => friday,
    });
    const viewer = (m: Member, accessLevel: 'free' | 'premium') => ({ id: m.id, email: m.email, role: 'member' as const, accessLevel });
    const premium = await member('premium');
    const free = await member('free');
    const p = await desk.open(viewer(premium, 'premium'), { subject: 'Friday premium', message: 'Help' });
    const f = await desk.open(viewer(free, 'free'), { subject: 'Friday free', message: 'Help' });
    // Premium: Monday 15:00; the others: Wednesday 15:00 (Saturday and Sunday do not count).
    expect((await read(premium, p.id)).request.respondBy).toBe('2026-11-30T20:00:00.000Z');
    expect((await read(free, f.id)).request.respondBy).toBe('2026-12-02T20:00:00.000Z');
    // Opened on Saturday: the clock starts on Monday at 00:00 in New York.
    const saturday = createSupportService({
      db: t.database.db,
      outbox: t.services.outbox,
      limiter: t.services.limiter,
      attachments: t.services.supportAttachments,
      siteUrl: t.config.siteUrl,
      clock: () => new Date('2026-11-28T16:00:00Z'),
    });
    const s = await saturday.open(viewer(premium, 'premium'), { subject: 'Saturday premium', message: 'Help' });
    expect((await read(premium, s.id)).request.respondBy).toBe('2026-12-01T05:00:00.000Z');
    // Staff's countdown sees the same target.
    const queue = (await (await call(admin, '/api/support/requests?limit=100')).json()) as ListAnswer;
    expect(queue.requests.find((r) => r.id === p.id)?.respondBy).toBe('2026-11-30T20:00:00.000Z');
  });

  it('assigns to a staff member only, and lists who may be assigned', async () => {
    const id = await open(await member('subscriber'), 'Assign me');
    const staff = (await (await call(editor, '/api/support/staff')).json()) as { staff: { id: string; email: string }[] };
    expect(staff.staff.map((s) => s.id)).toEqual(expect.arrayContaining([admin.id, editor.id]));
    const assigned = await call(admin, `/api/support/requests/${id}`, 'PATCH', { assigneeId: editor.id });
    expect(((await assigned.json()) as RequestAnswer).request.assignee?.id).toBe(editor.id);
    const someone = await member('premium');
    const refused = await call(admin, `/api/support/requests/${id}`, 'PATCH', { assigneeId: someone.id });
    expect(refused.status).toBe(422);
    expect((await read(admin, id)).request.assignee?.id).toBe(editor.id);
    const cleared = await call(admin, `/api/support/requests/${id}`, 'PATCH', { assigneeId: null });
    expect(((await cleared.json()) as RequestAnswer).request.assignee).toBeNull();
  });

  it("moves the status with each reply and staff's choice, and reopens a waiting or closed request on the member's reply", async () => {
    const who = await member('premium');
    const id = await open(who, 'Status walk');
    const state = async () => (await read(admin, id)).request;
    expect((await state()).status).toBe('open');
    expect((await state()).firstResponseAt).toBeNull();
    // An internal note is not a response and changes nothing.
    await call(editor, `/api/support/requests/${id}/messages`, 'POST', { body: 'Looking into it', internal: true });
    expect(await state()).toMatchObject({ status: 'open', firstResponseAt: null, assignee: null });
    // Staff's reply: waiting on the member, the first response, and the replier takes it.
    await call(editor, `/api/support/requests/${id}/messages`, 'POST', { body: 'Can you send a screenshot?' });
    const answered = await state();
    expect(answered).toMatchObject({ status: 'waiting', assignee: { id: editor.id } });
    expect(answered.firstResponseAt).not.toBeNull();
    // The member answers: staff's turn again.
    await call(who, `/api/support/requests/${id}/messages`, 'POST', { body: 'Here it is.' });
    expect((await state()).status).toBe('open');
    // Staff close it with a reply; the first response stays the first.
    await call(admin, `/api/support/requests/${id}/messages`, 'POST', { body: 'Fixed.', status: 'closed' });
    const closed = await state();
    expect(closed.status).toBe('closed');
    expect(closed.closedAt).not.toBeNull();
    expect(closed.firstResponseAt).toBe(answered.firstResponseAt);
    // A member's reply reopens a closed request too.
    await call(who, `/api/support/requests/${id}/messages`, 'POST', { body: 'It is back.' });
    expect(await state()).toMatchObject({ status: 'open', closedAt: null });
    // Staff set it by hand.
    const set = await call(admin, `/api/support/requests/${id}`, 'PATCH', { status: 'waiting' });
    expect(((await set.json()) as RequestAnswer).request.status).toBe('waiting');
    expect((await call(admin, `/api/support/requests/${id}`, 'PATCH', { status: 'pending' })).status).toBe(422);
    expect((await call(admin, `/api/support/requests/${id}`, 'PATCH', {})).status).toBe(422);
  });

  it("mails staff's reply to the member with a link back, never an internal note, and tells staff of a new request", async () => {
    const who = await member('premium');
    const id = await open(who, 'Mail me', 'My first message.');
    const notices = (await mailsTo(INBOX, 'support-request-opened')).filter((m) => m.subject.includes('Mail me'));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.subject).toBe('[Priority] Support request: Mail me');
    expect(notices[0]!.bodyText).toContain('My first message.');
    await call(admin, `/api/support/requests/${id}/messages`, 'POST', { body: 'INTERNAL-ONLY-TEXT', internal: true });
    expect(await mailsTo(who.email, 'support-reply')).toHaveLength(0);
    await call(admin, `/api/support/requests/${id}/messages`, 'POST', { body: 'We refunded the charge.' });
    const replies = await mailsTo(who.email, 'support-reply');
    expect(replies).toHaveLength(1);
    expect(replies[0]!.subject).toBe('Re: Mail me');
    expect(replies[0]!.bodyText).toContain('We refunded the charge.');
    expect(replies[0]!.bodyText).toContain(`${t.config.siteUrl}/account/support?request=${id}`);
    expect(replies[0]!.bodyHtml).toContain(`href="${t.config.siteUrl}/account/support?request=${id}"`);
    // No mail anywhere carries the note.
    const all = await t.database.db.select().from(emails);
    expect(all.filter((m) => `${m.bodyText}${m.bodyHtml}`.includes('INTERNAL-ONLY-TEXT'))).toEqual([]);
    // The member's own reply mails nobody.
    await call(who, `/api/support/requests/${id}/messages`, 'POST', { body: 'Thanks!' });
    expect(await mailsTo(who.email, 'support-reply')).toHaveLength(1);
  });

  it('stores an attachment judged by its bytes, serves it to the member and staff only, and refuses other types and sizes', async () => {
    const owner = await member('premium');
    const stranger = await member('premium');
    const res = await send(owner, '/api/support/requests', [
      { field: 'subject', body: 'With a PDF' },
      { field: 'message', body: 'See the attached invoice.' },
      { field: 'attachment', filename: '../../etc/in\u202Evoice\u200b.pdf', type: 'text/html', body: PDF },
    ]);
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const [first] = (await read(owner, id)).messages;
    // The name is cleaned of paths, control and direction characters; the type is the bytes'.
    expect(first!.attachment).toEqual({ name: 'invoice.pdf', type: 'application/pdf', size: PDF.length });
    const url = `/api/support/requests/${id}/messages/${first!.id}/attachment`;
    for (const who of [owner, admin, editor]) {
      const got = await call(who, url);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe('application/pdf');
      expect(got.headers.get('content-disposition')).toBe(`attachment; filename="invoice.pdf"; filename*=UTF-8''invoice.pdf`);
      expect(got.headers.get('x-content-type-options')).toBe('nosniff');
      expect(got.headers.get('cache-control')).toBe('private, no-store');
      expect(Buffer.from(await got.arrayBuffer()).equals(PDF)).toBe(true);
    }
    expect((await call(stranger, url)).status).toBe(404);
    expect((await t.app.request(url)).status).toBe(401);

    // The key is the server's, in an area no media URL or signed file link reaches.
    const [row] = await t.database.db.select().from(supportMessages).where(eq(supportMessages.id, first!.id));
    const key = row!.attachmentKey!;
    expect(key).toMatch(/^[0-9a-f]{32}\.pdf$/);
    expect(await stored()(key)).toBeDefined();
    expect((await t.app.request(`/uploads/${key}`)).status).toBe(404);
    for (const ref of [`uploads/${key}`, `uploads/support/${key}`, `../support-attachments/${key}`]) {
      const link = new URL(await t.services.downloads.link(ref, 600));
      expect((await t.app.request(`${link.pathname}${link.search}`)).status, ref).toBe(404);
    }

    // A reply may carry one too; an empty file input is no attachment.
    const reply = await send(owner, `/api/support/requests/${id}/messages`, [
      { field: 'body', body: 'And a screenshot.' },
      { field: 'attachment', filename: 'shot.png', type: 'image/png', body: pngOfSize(200 * 1024) },
    ]);
    expect(reply.status).toBe(201);
    const none = await send(owner, `/api/support/requests/${id}/messages`, [
      { field: 'body', body: 'No file this time.' },
      { field: 'attachment', filename: '', type: 'application/octet-stream', body: '' },
    ]);
    expect(none.status).toBe(201);
    // A name that says another type gets the bytes' type after it, so the saved file opens as what it is.
    const posing = await send(owner, `/api/support/requests/${id}/messages`, [
      { field: 'body', body: 'Named as a page.' },
      { field: 'attachment', filename: 'invoice.html', type: 'text/html', body: PNG },
    ]);
    expect(posing.status).toBe(201);
    const messages = (await read(owner, id)).messages;
    expect(messages.map((m) => m.attachment?.type ?? null)).toEqual(['application/pdf', 'image/png', null, 'image/png']);
    const renamed = messages.at(-1)!;
    expect(renamed.attachment!.name).toBe('invoice.html.png');
    const download = await call(owner, `/api/support/requests/${id}/messages/${renamed.id}/attachment`);
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="invoice.html.png"; filename*=UTF-8''invoice.html.png`);

    // Refused: nothing kept, neither rows nor objects.
    const before = await counts();
    const refusals: [string, Part[], number][] = [
      ['HTML', [{ field: 'attachment', filename: 'x.png', type: 'image/png', body: '<script>alert(1)</script>' }], 415],
      ['SVG', [{ field: 'attachment', filename: 'x.svg', type: 'image/svg+xml', body: '<svg onload="alert(1)"/>' }], 415],
      ['an empty named file', [{ field: 'attachment', filename: 'x.pdf', type: 'application/pdf', body: '' }], 422],
      ['too large', [{ field: 'attachment', filename: 'big.png', type: 'image/png', body: pngOfSize(ATTACHMENT_MAX_BYTES + 1) }], 413],
      [
        'two files',
        [
          { field: 'attachment', filename: 'a.png', body: PNG },
          { field: 'attachment', filename: 'b.png', body: PNG },
        ],
        422,
      ],
      ['another file field', [{ field: 'file', filename: 'a.png', body: PNG }], 422],
      [
        'a web page posing as MP4',
        [{ field: 'attachment', filename: 'page.html', type: 'video/mp4', body: '<!--ftypisom--><html><script>alert(1)</script></html>' }],
        415,
      ],
    ];
    for (const [label, parts, status] of refusals) {
      const opened = await send(owner, '/api/support/requests', [
        { field: 'subject', body: label },
        { field: 'message', body: 'x' },
        ...parts,
      ]);
      expect(opened.status, label).toBe(status);
      const replied = await send(owner, `/api/support/requests/${id}/messages`, [{ field: 'body', body: label }, ...parts]);
      expect(replied.status, label).toBe(status);
    }
    // A good file with a bad field, or to someone else's request: the stored file goes again.
    const badField = await send(owner, '/api/support/requests', [
      { field: 'attachment', filename: 'a.png', body: PNG },
      { field: 'subject', body: '' },
      { field: 'message', body: 'x' },
    ]);
    expect(badField.status).toBe(422);
    const notTheirs = await send(stranger, `/api/support/requests/${id}/messages`, [
      { field: 'body', body: 'mine now' },
      { field: 'attachment', filename: 'a.png', body: PNG },
    ]);
    expect(notTheirs.status).toBe(404);
    // Whose request it is is asked before the body is read: a stranger's oversized file is a 404, not a 413.
    const strangersHuge = await t.app.request(`/api/support/requests/${id}/messages`, {
      method: 'POST',
      headers: {
        ...stranger.headers,
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(ATTACHMENT_MAX_BYTES * 2),
      },
      body: '--x--\r\n',
    });
    expect(strangersHuge.status).toBe(404);
    // A declared length over the limit is refused before reading.
    const huge = await t.app.request('/api/support/requests', {
      method: 'POST',
      headers: { ...owner.headers, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(ATTACHMENT_MAX_BYTES * 2) },
      body: '--x--\r\n',
    });
    expect(huge.status).toBe(413);
    expect(await counts()).toEqual(before);
    // JSON bodies keep the app's body limit (64 KB in tests).
    const long = await call(owner, '/api/support/requests', 'POST', { subject: 'Long', message: 'x'.repeat(70 * 1024) });
    expect(long.status).toBe(413);
  });

  it("exports the member's requests and messages without internal notes, and deletes them and their attachments with the account", async () => {
    const leaving = await member('subscriber');
    const res = await send(leaving, '/api/support/requests', [
      { field: 'subject', body: 'Before I go' },
      { field: 'message', body: 'Please close my account.' },
      { field: 'attachment', filename: 'proof.png', body: PNG },
    ]);
    const { id } = (await res.json()) as { id: string };
    await call(admin, `/api/support/requests/${id}/messages`, 'POST', { body: 'NOTE-NOT-EXPORTED', internal: true });
    await call(admin, `/api/support/requests/${id}/messages`, 'POST', { body: 'Sorry to see you go.' });
    const exported = await (await call(leaving, '/api/users/me/export')).json();
    const text = JSON.stringify(exported);
    expect(text).not.toContain('NOTE-NOT-EXPORTED');
    const requests = (exported as { supportRequests: { id: string; messages: { body: string }[] }[] }).supportRequests;
    expect(requests.map((r) => r.id)).toEqual([id]);
    expect(requests[0]!.messages.map((m) => m.body)).toEqual(['Please close my account.', 'Sorry to see you go.']);
    expect(text).not.toContain('attachmentKey');

    const [row] = await t.database.db.select().from(supportMessages).where(eq(supportMessages.requestId, id));
    const key = row!.attachmentKey!;
    expect(await stored()(key)).toBeDefined();
    expect((await call(leaving, '/api/users/me', 'DELETE')).status).toBe(204);
    expect(await t.database.db.select().from(supportRequests).where(eq(supportRequests.id, id))).toEqual([]);
    expect(await t.database.db.select().from(supportMessages).where(eq(supportMessages.requestId, id))).toEqual([]);
    expect(await stored()(key)).toBeUndefined();
    expect((await call(admin, `/api/support/requests/${id}`)).status).toBe(404);
  });

  it("never shows a member a staff author's address: a nameless or since demoted staff member is the desk", async () => {
    const asker = await member('free');
    const id = await open(asker, 'Who answers?');
    const nameless = await signedInMember(t, `nameless-${kind}@desk.test`, 'editor', 'premium');
    await t.database.db.update(profiles).set({ name: null }).where(eq(profiles.id, nameless.id));
    expect((await call(nameless, `/api/support/requests/${id}/messages`, 'POST', { body: 'On it.' })).status).toBe(201);
    const [mail] = await mailsTo(asker.email, 'support-reply');
    expect(`${mail!.bodyText}${mail!.bodyHtml}`).not.toContain(nameless.email);
    expect(mail!.bodyText).toContain('Beacon Growth support');
    await t.services.users.assign(nameless.id, 'member', 'free');
    const { messages } = await read(asker, id);
    expect(messages.at(-1)).toMatchObject({ fromStaff: true, author: { name: 'Beacon Growth support' } });
    expect(JSON.stringify(messages)).not.toContain(nameless.email);
  });

  it(`takes at most ${MAX_MEMBER_MESSAGES} messages in one request from the member, and never stores a refused file`, async () => {
    const talker = await member('subscriber');
    const id = await open(talker, 'A long conversation');
    await t.database.db.insert(supportMessages).values(
      Array.from({ length: MAX_MEMBER_MESSAGES - 1 }, (_, i) => ({
        requestId: id,
        authorId: talker.id,
        fromStaff: false,
        internal: false,
        body: `Message ${i}`,
      })),
    );
    const before = await counts();
    const refused = await call(talker, `/api/support/requests/${id}/messages`, 'POST', { body: 'One more' });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('open a new request');
    const withFile = await send(talker, `/api/support/requests/${id}/messages`, [
      { field: 'body', body: 'One more, with a file' },
      { field: 'attachment', filename: 'a.png', body: PNG },
    ]);
    expect(withFile.status).toBe(409);
    expect(await counts()).toEqual(before);
    expect((await call(admin, `/api/support/requests/${id}/messages`, 'POST', { body: 'Staff can still answer.' })).status).toBe(201);
  });

  it('deletes the account and its rows even when a stored attachment cannot be removed (logged, never rolled back)', async () => {
    const leaving = await member('free');
    const res = await send(leaving, '/api/support/requests', [
      { field: 'subject', body: 'Storage trouble' },
      { field: 'message', body: 'Bye.' },
      { field: 'attachment', filename: 'proof.png', body: PNG },
    ]);
    const { id } = (await res.json()) as { id: string };
    const [row] = await t.database.db.select().from(supportMessages).where(eq(supportMessages.requestId, id));
    // The object's file becomes a folder with something in it: removing it fails.
    const { rm, mkdir, writeFile } = await import('node:fs/promises');
    const object = path.join((t.config.uploads.supportStorage as { dir: string }).dir, row!.attachmentKey!);
    await rm(object);
    await mkdir(object);
    await writeFile(path.join(object, 'stuck'), 'x');
    try {
      expect((await call(leaving, '/api/users/me', 'DELETE')).status).toBe(204);
      expect(await t.database.db.select().from(supportRequests).where(eq(supportRequests.id, id))).toEqual([]);
      expect(await t.database.db.select().from(profiles).where(eq(profiles.id, leaving.id))).toEqual([]);
    } finally {
      await rm(object, { recursive: true, force: true });
    }
  });

  /** Rows of the desk's tables and objects in its storage area. */
  async function counts() {
    const requests = await t.database.db.select().from(supportRequests);
    const messages = await t.database.db.select().from(supportMessages);
    const keys = messages.flatMap((m) => (m.attachmentKey ? [m.attachmentKey] : []));
    const objects = await Promise.all(keys.map(async (k) => Boolean(await stored()(k))));
    return { requests: requests.length, messages: messages.length, objects: objects.filter(Boolean).length, files: await files() };
  }
  /** Files in the support area's folder (partial writes included). */
  async function files() {
    const { readdir } = await import('node:fs/promises');
    const dir = (t.config.uploads.supportStorage as { dir: string }).dir;
    return (await readdir(dir).catch(() => [])).length;
  }
});
