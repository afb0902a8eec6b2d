/**
 * Idempotency-Key on the writes a browser retries, on both databases, one kind of write at a time:
 * a form (contact), an event registration, a community thread, a support request (JSON) and a
 * support reply with an attachment (a streamed multipart body), and a checkout. For each: the same
 * key and request twice write once, mail once and answer the first answer again; another request
 * under the key is 422; concurrent duplicates write once; an instance that dies after the write
 * committed but before its answer was kept (the ledger's `finish` fails, as a dead process never
 * runs it) leaves a retry that writes nothing again (409 while the lease holds, then `answer_lost`,
 * or, for a checkout, which writes nothing of ours, the same session from the provider); one that
 * dies before the commit leaves a retry that writes once; and a member's key is theirs alone. Bad
 * keys, and every kind of caller, are idempotency.security.test.ts's.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../functions/app.ts';
import { communityCategories, communityThreads } from '../../functions/community/tables.ts';
import { contactMessages } from '../../functions/contact/tables.ts';
import { emails } from '../../functions/email/tables.ts';
import { eventRegistrations } from '../../functions/events/tables.ts';
import { testBillingSessions } from '../../functions/payments/embedded/tables.ts';
import { withBeforeCommit } from '../../functions/platform/db/commit-hooks.ts';
import type { IdempotencyLedger } from '../../functions/platform/idempotency/ledger.ts';
import { idempotencyKeys } from '../../functions/platform/idempotency/tables.ts';
import { supportMessages, supportRequests } from '../../functions/support/tables.ts';
import { profiles } from '../../functions/users/tables.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import type { ErrorAnswer } from '../support/answers.ts';
import { DATABASE_KINDS } from '../support/databases.ts';
import { createEvent, signedInMember } from '../support/events.ts';
import { makeBlogInput, quietLogger } from '../support/fixtures.ts';
import { tempDir } from '../support/temp.ts';
import { multipart, PNG } from '../support/uploads.ts';

type App = TestApp['app'];
/** One case's caller: their headers, a marker their writes carry, and whatever their kind of write needs. */
interface Caller {
  headers: Record<string, string>;
  id?: string;
  email: string;
  marker: string;
  /** Two paths the caller may write to (an event's registration, a request's replies): the second is "another request". */
  paths: [string, string];
}
interface WriteKind {
  name: string;
  /** Whether the write commits to our database (a checkout's session is the provider's). */
  commits: boolean;
  /** Whether the key names whose write it is (a member's): forms are anonymous. */
  perMember: boolean;
  success: number;
  caller(): Promise<Caller>;
  /** The write; `variant` 1 is another request than 0 (another body, or another path). */
  send(app: App, who: Caller, key: string, variant?: 0 | 1): Response | Promise<Response>;
  /** What the caller's writes stored, and the mail they queued. */
  rows(who: Caller): Promise<number>;
  mails(who: Caller): Promise<number>;
}

const count = async (rows: Promise<unknown[]>) => (await rows).length;

describe.each(DATABASE_KINDS)('Idempotency-Key on %s', (kind) => {
  let t: TestApp;
  let n = 0;
  const category = `idem-${kind}`;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', DATA_DIR: await tempDir(`idempotency-${kind}`) });
    await t.database.db.insert(communityCategories).values({ slug: category, name: 'Idempotency', position: 1, accessLevel: 'free' });
  });
  afterAll(() => t?.close());

  const next = () => `${(n += 1)}-${kind}`;
  async function member(level: 'free' | 'premium' = 'premium'): Promise<Omit<Caller, 'paths'>> {
    const label = next();
    const m = await signedInMember(t, `m${label}@idempotency.test`, 'member', level);
    // A month old: the community's hold rule leaves its posts alone.
    await t.database.db
      .update(profiles)
      .set({ createdAt: new Date(Date.now() - 30 * 86_400_000) })
      .where(eq(profiles.id, m.id));
    return { headers: m.headers, id: m.id, email: m.email, marker: `MARK-${label}` };
  }
  const json = async (app: App, path: string, who: Caller, key: string | undefined, body?: unknown) =>
    app.request(path, {
      method: 'POST',
      headers: {
        ...who.headers,
        ...(key === undefined ? {} : { 'idempotency-key': key }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const mailsMarked = (who: Caller) =>
    count(
      t.database.db
        .select()
        .from(emails)
        .where(like(emails.bodyText, `%${who.marker}%`)),
    );

  const KINDS: WriteKind[] = [
    {
      name: 'a form (contact)',
      commits: true,
      perMember: false,
      success: 201,
      async caller() {
        const label = next();
        const ip = `198.51.${n % 250}.${(n * 7) % 250}`;
        return {
          headers: { 'x-forwarded-for': ip },
          email: `v${label}@idempotency.test`,
          marker: `MARK-${label}`,
          paths: ['/api/contact', ''],
        };
      },
      send: (app, who, key, variant = 0) =>
        json(app, '/api/contact', who, key, {
          name: 'Ada Lovelace',
          email: who.email,
          subject: variant ? 'Another question' : 'A question',
          message: `Can you help? ${who.marker}`,
        }),
      rows: (who) => count(t.database.db.select().from(contactMessages).where(eq(contactMessages.email, who.email))),
      mails: (who) => count(t.database.db.select().from(emails).where(eq(emails.to, who.email))),
    },
    {
      name: 'an event registration',
      commits: true,
      perMember: true,
      success: 200,
      async caller() {
        const [one, two] = [await createEvent(t, 48 * 60), await createEvent(t, 72 * 60)];
        return { ...(await member()), paths: [`/api/events/${one.slug}/registration`, `/api/events/${two.slug}/registration`] };
      },
      send: (app, who, key, variant = 0) => json(app, who.paths[variant], who, key),
      rows: (who) => count(t.database.db.select().from(eventRegistrations).where(eq(eventRegistrations.userId, who.id!))),
      mails: (who) =>
        count(
          t.database.db
            .select()
            .from(emails)
            .where(and(eq(emails.to, who.email), eq(emails.template, 'event-registered'))),
        ),
    },
    {
      name: 'a community thread',
      commits: true,
      perMember: true,
      success: 201,
      caller: async () => ({ ...(await member('free')), paths: ['/api/community/threads', ''] }),
      send: (app, who, key, variant = 0) =>
        json(app, '/api/community/threads', who, key, { category, title: variant ? 'Another title' : 'A title', body: who.marker }),
      rows: (who) => count(t.database.db.select().from(communityThreads).where(eq(communityThreads.authorId, who.id!))),
      mails: mailsMarked,
    },
    {
      name: 'a support request',
      commits: true,
      perMember: true,
      success: 201,
      caller: async () => ({ ...(await member()), paths: ['/api/support/requests', ''] }),
      send: (app, who, key, variant = 0) =>
        json(app, '/api/support/requests', who, key, { subject: variant ? 'Another matter' : 'A matter', message: who.marker }),
      rows: (who) => count(t.database.db.select().from(supportRequests).where(eq(supportRequests.userId, who.id!))),
      mails: mailsMarked,
    },
    {
      name: 'a support reply with an attachment (streamed)',
      commits: true,
      perMember: true,
      success: 201,
      async caller() {
        const who = { ...(await member()), paths: ['', ''] as [string, string] };
        const opened = [];
        for (const subject of ['One', 'Two']) {
          const res = await json(t.app, '/api/support/requests', who, randomUUID(), { subject, message: 'Opening.' });
          opened.push(((await res.json()) as { id: string }).id);
        }
        who.paths = [`/api/support/requests/${opened[0]}/messages`, `/api/support/requests/${opened[1]}/messages`];
        return who;
      },
      send(app, who, key, variant = 0) {
        // A new boundary on every send, as a browser's retry of the same form makes.
        const form = multipart([
          { field: 'body', body: `See the file. ${who.marker}` },
          { field: 'attachment', filename: 'screen.png', type: 'image/png', body: PNG },
        ]);
        return app.request(who.paths[variant], {
          method: 'POST',
          headers: { ...who.headers, 'idempotency-key': key, 'content-type': form.contentType },
          body: new Uint8Array(form.body),
        });
      },
      rows: (who) =>
        count(
          t.database.db
            .select()
            .from(supportMessages)
            .where(like(supportMessages.body, `%${who.marker}%`)),
        ),
      mails: mailsMarked,
    },
    {
      name: 'a checkout',
      commits: false,
      perMember: true,
      success: 200,
      caller: async () => ({ ...(await member('free')), paths: ['/api/payments/stripe/create-session', ''] }),
      send: (app, who, key, variant = 0) =>
        json(app, '/api/payments/stripe/create-session', who, key, {
          priceId: variant ? 'price_premium_yearly' : 'price_premium_monthly',
          successUrl: '/payment/confirmation?session_id={CHECKOUT_SESSION_ID}',
          cancelUrl: '/pricing',
        }),
      rows: (who) =>
        count(
          t.database.db
            .select()
            .from(testBillingSessions)
            .where(sql`${testBillingSessions.detail}->>'userId' = ${who.id!}`),
        ),
      mails: mailsMarked,
    },
  ];

  /** Another instance on the same database whose ledger is changed (a process that dies at some point). */
  function instance(change: (ledger: IdempotencyLedger) => Partial<IdempotencyLedger>): App {
    const idempotency = { ...t.services.idempotency, ...change(t.services.idempotency) };
    return createApp({ config: t.config, logger: quietLogger(), services: { ...t.services, idempotency } });
  }
  /** The lease of a dead attempt runs out. */
  const leaseRunsOut = (key: string) =>
    t.database.db
      .update(idempotencyKeys)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(idempotencyKeys.key, key));
  const codeOf = async (res: Response) => ((await res.json()) as ErrorAnswer).error.code;

  describe.each(KINDS)('$name', (write) => {
    it('writes and mails once for the same key and request, and answers the first answer again', async () => {
      const who = await write.caller();
      const key = randomUUID();
      const first = await write.send(t.app, who, key);
      expect(first.status, await first.clone().text()).toBe(write.success);
      const mails = await write.mails(who);
      const again = await write.send(t.app, who, key);
      expect(again.status).toBe(first.status);
      expect(await again.text()).toBe(await first.text());
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(await write.rows(who)).toBe(1);
      expect(await write.mails(who)).toBe(mails);
    });

    it('refuses the key with another request: 422, nothing more written', async () => {
      const who = await write.caller();
      const key = randomUUID();
      expect((await write.send(t.app, who, key)).status).toBe(write.success);
      const other = await write.send(t.app, who, key, 1);
      expect(other.status).toBe(422);
      expect(await codeOf(other)).toBe('idempotency_key_reused');
      expect(await write.rows(who)).toBe(1);
    });

    it('writes once when duplicates arrive together', async () => {
      const who = await write.caller();
      const key = randomUUID();
      const answers = await Promise.all(Array.from({ length: 5 }, () => write.send(t.app, who, key)));
      const statuses = answers.map((res) => res.status);
      expect(
        statuses.every((s) => s === write.success || s === 409),
        statuses.join(),
      ).toBe(true);
      expect(statuses).toContain(write.success);
      const bodies = await Promise.all(answers.filter((res) => res.status === write.success).map((res) => res.text()));
      expect(new Set(bodies).size).toBe(1);
      // One ran; the others waited (409) or were answered its answer.
      const fresh = answers.filter((res) => res.status === write.success && !res.headers.has('idempotent-replayed'));
      expect(fresh).toHaveLength(1);
      for (const res of answers.filter((r) => r.status === 409)) expect(await codeOf(res)).toBe('request_in_progress');
      expect(await write.rows(who)).toBe(1);
    });

    it('writes nothing again when the instance died after the commit, before keeping the answer', async () => {
      const who = await write.caller();
      const key = randomUUID();
      const dying = instance(() => ({ finish: () => Promise.reject(new Error('the instance died')) }));
      expect((await write.send(dying, who, key)).status).toBe(write.success);
      const firstSession = write.commits ? undefined : await t.database.db.select().from(testBillingSessions);
      const mails = await write.mails(who);
      // The dead attempt's lease still holds: the retry waits.
      const early = await write.send(t.app, who, key);
      expect(early.status).toBe(409);
      expect(await codeOf(early)).toBe('request_in_progress');
      expect(early.headers.get('retry-after')).toBe('1');
      await leaseRunsOut(key);
      const retry = await write.send(t.app, who, key);
      if (write.commits) {
        expect(retry.status).toBe(409);
        expect(await codeOf(retry)).toBe('answer_lost');
      } else {
        // Nothing of ours committed: the retry runs again, and the provider answers the same session.
        expect(retry.status).toBe(write.success);
        expect(await t.database.db.select().from(testBillingSessions)).toHaveLength(firstSession!.length);
      }
      expect(await write.rows(who)).toBe(1);
      expect(await write.mails(who)).toBe(mails);
    });

    it('writes once when the instance died before the commit', async () => {
      const who = await write.caller();
      const key = randomUUID();
      const dying = instance((ledger) => ({
        begin: async (...args) => {
          await ledger.begin(...args);
          throw new Error('the instance died');
        },
      }));
      expect((await write.send(dying, who, key)).status).toBe(500);
      expect(await write.rows(who)).toBe(0);
      expect((await write.send(t.app, who, key)).status).toBe(409);
      await leaseRunsOut(key);
      const retry = await write.send(t.app, who, key);
      expect(retry.status).toBe(write.success);
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
      expect(await write.rows(who)).toBe(1);
    });

    it.runIf(write.perMember)('keeps a key to its member: another member sending it writes their own', async () => {
      const [one, two] = [await write.caller(), await write.caller()];
      const key = randomUUID();
      const first = await write.send(t.app, one, key);
      expect(first.status).toBe(write.success);
      const theirs = await write.send(t.app, two, key);
      expect(theirs.status).toBe(write.success);
      expect(theirs.headers.get('idempotent-replayed')).toBeNull();
      expect(await write.rows(two)).toBe(1);
    });
  });

  it('commits a first comment and the item’s comments thread made with it in one transaction (one write to mark)', async () => {
    const article = await t.services.content.create('blog', makeBlogInput({ accessLevel: 'free' }));
    const who = { ...(await member('free')), paths: ['', ''] as [string, string] };
    // Sent without a key, so the hook counting commits is the only one.
    let commits = 0;
    const res = await withBeforeCommit(
      async () => void (commits += 1),
      () => json(t.app, `/api/community/comments/blogs/${article.slug}`, who, undefined, { body: who.marker }),
    );
    expect(res.status).toBe(201);
    expect(commits).toBe(1);
  });

  it('takes a member’s keys and kept answers with their deleted account', async () => {
    const write = KINDS[3]!;
    const who = await write.caller();
    expect((await write.send(t.app, who, randomUUID())).status).toBe(write.success);
    const held = () => t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.scope, who.id!));
    expect(await held()).toHaveLength(1);
    // The deletion is itself a keyed write: its own key goes in the same transaction (nothing left to mark).
    const deleted = await t.app.request('/api/users/me', {
      method: 'DELETE',
      headers: { ...who.headers, 'idempotency-key': randomUUID() },
    });
    expect(deleted.status).toBe(204);
    expect(await held()).toHaveLength(0);
  });

  it('keeps no 4xx that changed nothing: the corrected retry under the same key runs', async () => {
    const write = KINDS[0]!;
    const who = await write.caller();
    const key = randomUUID();
    const refused = await json(t.app, '/api/contact', who, key, { name: 'Ada', email: who.email, subject: 'Hi', message: '' });
    expect(refused.status).toBe(422);
    expect(await t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toHaveLength(0);
    expect((await write.send(t.app, who, key)).status).toBe(write.success);
    expect(await write.rows(who)).toBe(1);
  });

  it('sweeps keys past their day, and a key past its day names a new write', async () => {
    const write = KINDS[0]!;
    const who = await write.caller();
    const [kept, old] = [randomUUID(), randomUUID()];
    for (const key of [kept, old]) expect((await write.send(t.app, who, key)).status).toBe(write.success);
    const dayAgo = sql`now() - interval '25 hours'`;
    await t.database.db.update(idempotencyKeys).set({ createdAt: dayAgo }).where(eq(idempotencyKeys.key, old));
    // Not swept yet: past its day, the key is a new write.
    const again = await write.send(t.app, who, old);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await write.rows(who)).toBe(3);
    await t.database.db.update(idempotencyKeys).set({ createdAt: dayAgo }).where(eq(idempotencyKeys.key, old));
    expect(await t.services.idempotency.sweep()).toBeGreaterThanOrEqual(1);
    const left = await t.database.db
      .select()
      .from(idempotencyKeys)
      .where(sql`${idempotencyKeys.key} in (${kept}, ${old})`);
    expect(left.map((row) => row.key)).toEqual([kept]);
  });
});
