/**
 * The members' business tools end to end on both databases (issue 35, items 1, 2 and 6): a members
 * file exported, imported on a fresh install and exported again gives the same file; consent is kept
 * only where the file proves it (the others get the double opt-in mail), levels come only as comps
 * that end, suppressions stay; a dry run reports every line and writes nothing; the filter, labels in
 * bulk and segments; API keys on the routes their table opens, by scope, until revoked.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emails } from '../../functions/email/tables.ts';
import { webhookDeliveries } from '../../functions/outbound/tables.ts';
import { accessGrants } from '../../functions/payments/grants/tables.ts';
import { newsletterSubscribers, newsletterSuppressions } from '../../functions/newsletter/tables.ts';
import { profiles } from '../../functions/users/tables.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { DATABASE_KINDS } from '../support/databases.ts';
import { apiCaller, roleAccounts } from '../support/callers.ts';
import { fileParts } from '../../src/components/admin/members-file-parts.ts';

const DAY = 86_400_000;
const HEADER =
  'email,name,comp_level,comp_until,labels,newsletter,list_status,consent_at,consent_source,suppressed,signup_referrer,signup_utm_source,signup_utm_medium,signup_utm_campaign,stripe_customer_id,created_at';

describe.each(DATABASE_KINDS)('members tools on %s', (kind) => {
  let a: TestApp;
  let b: TestApp;
  let adminA: string;
  let adminB: string;
  const until = new Date(Date.now() + 90 * DAY).toISOString();

  beforeAll(async () => {
    const env = { AUTH_BCRYPT_COST: '4', EMAIL_WORKER: 'false' };
    a = await createTestApp(kind, undefined, env);
    b = await createTestApp(kind, undefined, env);
    adminA = (await roleAccounts(a, `${kind}-members-a`, { admin: { role: 'admin', accessLevel: 'premium' } })).tokens.admin;
    adminB = (await roleAccounts(b, `${kind}-members-b`, { admin: { role: 'admin', accessLevel: 'premium' } })).tokens.admin;
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  const send = (t: TestApp, token: string, path: string, file: string | Uint8Array<ArrayBuffer>, type = 'text/csv') =>
    t.app.request(path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body: file });
  const exportOf = async (t: TestApp, token: string, query: string) => {
    const res = await apiCaller(t)(token, `/api/admin/members/export.csv?${query}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    return res.text();
  };

  it('round trip: export, import on a fresh install, export again gives the same file', async () => {
    // Bob's name is a formula, Cy's starts with an apostrophe: defused on the way out, given back as they were.
    const source = [
      HEADER,
      `ana@rt.test,Ana Round,premium,${until},RoundTrip;VIP,yes,confirmed,2026-01-05T10:00:00.000Z,footer form,,https://news.example/post,newsletter,email,spring,cus_RoundTrip1,2025-12-01T09:00:00.000Z`,
      `bob@rt.test,"=HYPERLINK(""http://evil.test"")",,,RoundTrip,,,,,,,,,,,2026-04-01T00:00:00.000Z`,
      `cy@rt.test,''+Cy,,,RoundTrip,no,unsubscribed,2026-02-01T00:00:00.000Z,,bounce,,,,,,2026-03-01T12:30:45.123Z`,
    ].join('\r\n');
    const seeded = await send(a, adminA, '/api/admin/members/import', source);
    expect(seeded.status, await seeded.clone().text()).toBe(200);
    expect(await seeded.json()).toEqual({ created: 3, updated: 0, errors: [] });

    const first = await exportOf(a, adminA, 'label=RoundTrip');
    expect(first.split('\r\n')[0]).toBe(
      'email,name,access_level,comp_level,comp_until,paid_access,labels,newsletter,list_status,consent_at,consent_source,suppressed,signup_referrer,signup_utm_source,signup_utm_medium,signup_utm_campaign,stripe_customer_id,created_at',
    );
    expect(first).toContain(`ana@rt.test,Ana Round,premium,premium,${until},,RoundTrip;VIP,yes,confirmed,2026-01-05T10:00:00.000Z`);
    expect(first).toContain(`"'=HYPERLINK(""http://evil.test"")"`);
    expect(first).toContain(`''+Cy`);
    const imported = await send(b, adminB, '/api/admin/members/import', first);
    expect(await imported.json()).toEqual({ created: 3, updated: 0, errors: [] });
    expect(await exportOf(b, adminB, 'label=RoundTrip')).toBe(first);
    // And once more: importing the same file again changes nothing.
    expect(await (await send(b, adminB, '/api/admin/members/import', first)).json()).toEqual({ created: 0, updated: 3, errors: [] });
    expect(await exportOf(b, adminB, 'label=RoundTrip')).toBe(first);
  });

  it('keeps consent only where the file proves it, gives levels as ending comps, keeps suppressions', async () => {
    const file = [
      HEADER,
      `proven@consent.test,,,,Consent,,confirmed,2026-01-01T00:00:00.000Z,import,,,,,,,`,
      `unproven@consent.test,,,,Consent,,confirmed,,,,,,,,,`,
      `comped@consent.test,,subscriber,${until},Consent,,,,,,,,,,,`,
      `bounced@consent.test,,,,Consent,,,,,complaint,,,,,,`,
    ].join('\n');
    expect(await (await send(a, adminA, '/api/admin/members/import', file)).json()).toEqual({ created: 4, updated: 0, errors: [] });
    const db = a.database.db;
    const listed = await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, 'proven@consent.test'));
    expect(listed[0]).toMatchObject({ status: 'confirmed', consentSource: 'import' });
    const pending = await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, 'unproven@consent.test'));
    expect(pending[0]?.status).toBe('pending');
    const optIn = await db.select().from(emails).where(eq(emails.to, 'unproven@consent.test'));
    expect(optIn.map((m) => m.template)).toEqual(['newsletter-confirm']);
    expect(await db.select().from(emails).where(eq(emails.to, 'proven@consent.test'))).toEqual([]);
    const [comped] = await db.select().from(profiles).where(eq(profiles.email, 'comped@consent.test'));
    expect(comped!.accessLevel).toBe('subscriber');
    const grants = await db.select().from(accessGrants).where(eq(accessGrants.userId, comped!.id));
    expect(grants).toMatchObject([{ source: 'comp', accessLevel: 'subscriber', note: 'Imported', endsAt: new Date(until) }]);
    const suppressed = await db.select().from(newsletterSuppressions).where(eq(newsletterSuppressions.address, 'bounced@consent.test'));
    expect(suppressed[0]?.reason).toBe('complaint');
  });

  it('holds the lines that must not write as they are: an own "no", suppressed addresses, repeated files, open comps', async () => {
    const call = apiCaller(a);
    const db = a.database.db;
    const first = [
      HEADER,
      `no@hold.test,,,,Hold,no,,,,,,,,,,`,
      `quiet@hold.test,,,,Hold,,pending,,,complaint,,,,,,`,
      `twice@hold.test,,premium,${until},Hold,,,,,,,,,,,`,
      `open@hold.test,,premium,,Hold,,,,,,,,,,,`,
      `yes@hold.test,,,,Hold,yes,,,,,,,,,,`,
    ].join('\n');
    const res = (await (await send(a, adminA, '/api/admin/members/import', first)).json()) as {
      created: number;
      errors: { row: number; message: string }[];
    };
    expect(res.created).toBe(5);
    expect(res.errors).toEqual([{ row: 5, message: expect.stringMatching(/^Imported without its level: comp_level needs comp_until/) }]);
    const [open] = await db.select().from(profiles).where(eq(profiles.email, 'open@hold.test'));
    expect(open!.accessLevel).toBe('free');
    // A yes without proven consent asks by mail; a suppressed address is asked nothing.
    const [yes] = await db.select().from(profiles).where(eq(profiles.email, 'yes@hold.test'));
    expect(yes!.newsletter).toBeNull();
    expect((await db.select().from(emails).where(eq(emails.to, 'yes@hold.test'))).map((m) => m.template)).toEqual(['newsletter-confirm']);
    expect(await db.select().from(emails).where(eq(emails.to, 'quiet@hold.test'))).toEqual([]);
    // The same file again: one comp still, and the member's own "no" is not turned into a "yes".
    const again = first
      .replace('no@hold.test,,,,Hold,no', 'no@hold.test,,,,Hold,yes')
      .replace('yes@hold.test,,,,Hold,yes', 'yes@hold.test,,,,Hold,');
    await send(a, adminA, '/api/admin/members/import', again);
    const [twice] = await db.select().from(profiles).where(eq(profiles.email, 'twice@hold.test'));
    expect((await db.select().from(accessGrants).where(eq(accessGrants.userId, twice!.id))).length).toBe(1);
    const [no] = await db.select().from(profiles).where(eq(profiles.email, 'no@hold.test'));
    expect(no!.newsletter).toBe(false);
    // A write key changes levels, never roles.
    const writer = (await (await call(adminA, '/api/admin/members/keys', { name: 'Writer', scopes: ['write:members'] })).json()) as {
      key: string;
    };
    expect((await call(writer.key, `/api/admin/users/${no!.id}`, { role: 'admin' }, 'PATCH')).status).toBe(403);
    expect((await call(writer.key, `/api/admin/users/${no!.id}`, { accessLevel: 'subscriber' }, 'PATCH')).status).toBe(200);
  });

  it('a dry run reports every line with a problem and writes nothing', async () => {
    const before = (await a.database.db.select().from(profiles)).length;
    const file = [
      'Email,Name,Comp_Level,Comp_Until,Labels',
      'fine@dry.test,Fine,,,',
      'not-an-address,,,,',
      'nolimit@dry.test,,premium,,',
      `past@dry.test,,premium,2020-01-01,`,
      'fine@dry.test,Again,,,',
      'badlabel@dry.test,,,,"a,b"',
      `taken@dry.test,,gold,${until},`,
      `feb@dry.test,,premium,2031-02-30,`,
      `ancient@dry.test,,premium,0000-06-01,`,
      '"broken@dry.test","Line\nbreak",,,',
    ].join('\n');
    const res = await send(a, adminA, '/api/admin/members/import?dryRun=1', file);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { rows: number; errors: { row: number; message: string }[] };
    expect(body.rows).toBe(10);
    expect(body.errors.map((e) => e.row)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(body.errors[1]!.message).toMatch(/Imported without its level: comp_level needs comp_until/);
    expect(body.errors[2]!.message).toMatch(/Imported without its level: comp_until is in the past/);
    expect(body.errors[3]!.message).toMatch(/earlier line/);
    expect(body.errors[6]!.message).toMatch(/comp_until must be a date/);
    expect(body.errors[7]!.message).toMatch(/comp_until must be a date/);
    expect(body.errors[8]!.message).toMatch(/line break/);
    expect((await a.database.db.select().from(profiles)).length).toBe(before);
  });

  it('a file sent in parts (as the Users tab does for a serverless host) reports the rows of the whole file', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => (i % 7 === 3 ? `bad-${i},,,,` : `part${i}@parts.test,"Part, ${i}",,,Parts`));
    const text = `email,name,comp_level,comp_until,labels\r\n${lines.join('\r\n')}\r\n\r\n`;
    const whole = (await (await send(a, adminA, '/api/admin/members/import?dryRun=1', text)).json()) as { rows: number; errors: unknown[] };
    const joined = { rows: 0, errors: [] as { row: number; message: string }[] };
    for (const part of fileParts(new TextEncoder().encode(text), 400)) {
      const res = (await (
        await send(a, adminA, '/api/admin/members/import?dryRun=1', part.bytes as Uint8Array<ArrayBuffer>)
      ).json()) as typeof joined;
      joined.rows += res.rows;
      joined.errors.push(...res.errors.map((e) => ({ ...e, row: e.row + part.offset })));
    }
    expect(joined).toEqual(whole);
    expect(whole.errors).toHaveLength(6);
  });

  it('refuses broken files as a whole, with a clear 4xx', async () => {
    const bad = async (body: string | Uint8Array<ArrayBuffer>, status: number, message: RegExp, type?: string) => {
      const res = await send(a, adminA, '/api/admin/members/import?dryRun=1', body, type);
      expect(res.status).toBe(status);
      expect(JSON.stringify(await res.json())).toMatch(message);
    };
    await bad('email,favourite_colour\nx@y.test,red', 400, /Unknown column: favourite_colour/);
    await bad('name\nAna', 400, /needs an email column/);
    await bad('email,email\nx@y.test,x@y.test', 400, /named twice/);
    await bad('', 400, /empty/);
    await bad(new Uint8Array([0x65, 0x6d, 0x61, 0x69, 0x6c, 0x0a, 0xff, 0xfe, 0x41]), 400, /UTF-8/);
    await bad('email\n"unclosed@quote.test', 400, /not valid CSV/);
    await bad(`email,name\nlong@line.test,${'x'.repeat(10 * 1024 * 1024)}`, 400, /longer than 65536 bytes/);
    await bad('email\nx@y.test', 415, /text\/csv/, 'application/json');
    await bad(`email\n${'a\n'.repeat(100_005)}`, 400, /at most 100000 members/);
    await bad('email,stripe_customer_id\nc1@y.test,cus_Same\nc2@y.test,cus_Same', 200, /cus_Same is on an earlier line/);
    // A byte-order mark is fine.
    const bom = await send(a, adminA, '/api/admin/members/import?dryRun=1', `\ufeffemail\nbom@file.test`);
    expect(await bom.json()).toEqual({ rows: 1, errors: [] });
  });

  it('filters, labels in bulk, and segments', async () => {
    const call = apiCaller(a);
    const file = [
      HEADER,
      'f1@filter.test,F One,,,Filter,,,,,,,news,,,,2026-02-01T00:00:00.000Z',
      'f2@filter.test,F Two,,,Filter,,,,,,,,,,,2026-03-01T00:00:00.000Z',
    ].join('\n');
    await send(a, adminA, '/api/admin/members/import', file);
    const list = async (q: string) =>
      ((await (await call(adminA, `/api/admin/users?${q}`)).json()) as { users: { email: string }[] }).users.map((u) => u.email);
    expect(await list('label=Filter')).toEqual(['f2@filter.test', 'f1@filter.test']);
    expect(await list('label=filter&signup=news')).toEqual(['f1@filter.test']);
    expect(await list('label=Filter&joinedFrom=2026-02-15')).toEqual(['f2@filter.test']);
    expect(await list('label=Filter&level=premium')).toEqual([]);
    expect((await call(adminA, '/api/admin/users?joinedTo=9999-12-31')).status).toBe(422);
    expect((await call(adminA, '/api/admin/members/segments', { name: 'Far future', filter: { seenFrom: '0000-01-01' } })).status).toBe(
      422,
    );
    expect(await list('label=Filter&status=none&newsletter=off')).toEqual(['f2@filter.test', 'f1@filter.test']);
    const relabel = await call(adminA, '/api/admin/members/labels', {
      filter: { label: ['Filter'], joinedTo: '2026-02-15' },
      add: ['Early'],
      remove: ['Filter'],
    });
    expect(await relabel.json()).toEqual({ members: 1, added: 1, removed: 1 });
    expect(await list('label=Early')).toEqual(['f1@filter.test']);
    // The member's own data export names the labels staff put on them.
    const [f1] = await a.database.db.select().from(profiles).where(eq(profiles.email, 'f1@filter.test'));
    const exported = await a.services.users.exportMe({ id: f1!.id, email: f1!.email, role: 'member', accessLevel: 'free' });
    expect(exported).toMatchObject({ labels: ['Early'] });
    const segment = await call(adminA, '/api/admin/members/segments', { name: 'Early birds', filter: { label: ['Early'] } });
    expect(segment.status).toBe(201);
    expect((await call(adminA, '/api/admin/members/segments', { name: 'early BIRDS', filter: {} })).status).toBe(409);
    const { segments } = (await (await call(adminA, '/api/admin/members/segments')).json()) as { segments: { name: string }[] };
    expect(segments.map((s) => s.name)).toContain('Early birds');
  });

  it('a segment is a newsletter audience: its members who get the newsletter, one copy each', async () => {
    const call = apiCaller(a);
    const file = [
      HEADER,
      's1@seg.test,,,,SegNews,yes,confirmed,2026-01-01T00:00:00.000Z,form,,,,,,,',
      's2@seg.test,,,,SegNews,no,,,,,,,,,,',
      's3@seg.test,,,,SegNews,yes,,,,complaint,,,,,,',
    ].join('\n');
    await send(a, adminA, '/api/admin/members/import', file);
    const segment = (await (
      await call(adminA, '/api/admin/members/segments', { name: 'Seg news', filter: { label: ['SegNews'] } })
    ).json()) as {
      id: string;
    };
    const reach = await call(adminA, `/api/admin/newsletter/audiences?selected=segment:${segment.id}`);
    expect(((await reach.json()) as { selected: number }).selected).toBe(1);
    const issue = await call(adminA, '/api/admin/newsletter/issues', {
      subject: 'For the segment',
      previewText: '',
      body: 'Hello segment',
      accessLevel: 'free',
      audience: [`segment:${segment.id}`],
    });
    expect(issue.status, await issue.clone().text()).toBe(201);
    const { id } = (await issue.json()) as { id: string };
    expect((await call(adminA, `/api/admin/newsletter/issues/${id}/send`, {})).status).toBe(202);
    const copies = await a.database.db.select().from(emails).where(eq(emails.subject, 'For the segment'));
    expect(copies.map((m) => m.to)).toEqual(['s1@seg.test']);
    // An unknown segment id reaches no one; a malformed one is refused.
    expect((await call(adminA, '/api/admin/newsletter/audiences?selected=segment:nope')).status).toBe(422);
  });

  it('an import tells webhooks of each member it makes, with their name', async () => {
    const call = apiCaller(a);
    const hook = await call(adminA, '/api/admin/outbound', { url: 'http://127.0.0.1:9/members-hook', events: ['member.created'] });
    expect(hook.status, await hook.clone().text()).toBe(201);
    const { id } = (await hook.json()) as { id: string };
    await send(
      a,
      adminA,
      '/api/admin/members/import',
      [HEADER, 'w1@hook.test,Wanda Hook,,,,,,,,,,,,,,', 'w2@hook.test,,,,,,,,,,,,,,,'].join('\n'),
    );
    const queued = await a.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id));
    const members = queued.map((d) => (d.payload as { member: { email: string; name: string | null } }).member);
    expect(members.sort((x, y) => x.email.localeCompare(y.email))).toEqual([
      expect.objectContaining({ email: 'w1@hook.test', name: 'Wanda Hook' }),
      expect.objectContaining({ email: 'w2@hook.test', name: null }),
    ]);
    expect((await call(adminA, `/api/admin/outbound/${id}`, undefined, 'DELETE')).status).toBe(204);
  });

  it('API keys: scoped, acting as their admin on the routes the table opens, until revoked', async () => {
    const call = apiCaller(a);
    const made = await call(adminA, '/api/admin/members/keys', { name: 'CRM', scopes: ['read:members'] });
    expect(made.status).toBe(201);
    const { id, key } = (await made.json()) as { id: string; key: string };
    expect(key).toMatch(/^mk_[\w-]{43}$/);
    expect((await call(key, '/api/admin/members/export.csv?label=Early')).status).toBe(200);
    expect((await call(key, '/api/admin/users?label=Early')).status).toBe(200);
    expect((await call(key, '/api/admin/members/labels', { add: ['X'] })).status).toBe(403);
    expect((await call(key, '/api/admin/overview')).status).toBe(403);
    expect((await call(key, '/api/admin/analytics/revenue')).status).toBe(403);
    const analyst = (await (await call(adminA, '/api/admin/members/keys', { name: 'BI', scopes: ['read:analytics'] })).json()) as {
      key: string;
    };
    expect((await call(analyst.key, '/api/admin/analytics/revenue?from=2026-01&to=2026-03')).status).toBe(200);
    expect((await call(analyst.key, '/api/admin/overview')).status).toBe(200);
    expect((await call(analyst.key, '/api/admin/members/export.csv')).status).toBe(403);
    expect((await call(key, '/api/admin/audit')).status).toBe(401);
    expect((await call(key, '/api/admin/members/keys')).status).toBe(401);
    const listed = (await (await call(adminA, '/api/admin/members/keys')).json()) as {
      keys: { id: string; lastUsedAt: string | null; prefix: string }[];
    };
    const row = listed.keys.find((k) => k.id === id)!;
    expect(row.lastUsedAt).not.toBeNull();
    expect(key.startsWith(row.prefix)).toBe(true);
    expect(JSON.stringify(listed)).not.toContain(key);
    expect((await call(adminA, `/api/admin/members/keys/${id}`, undefined, 'DELETE')).status).toBe(204);
    // Revoked: refused at once on this instance (the check's cache is cleared), and by the database elsewhere.
    expect((await call(key, '/api/admin/members/export.csv')).status).toBe(401);
    expect((await call('mk_' + 'x'.repeat(43), '/api/admin/members/export.csv')).status).toBe(401);
  });
});
