/**
 * The answer lane (answer-lane.ts) against an attacker and against staleness, through a real Node
 * listener on both databases: once the app has answered a target from memory, the lane answers it
 * for the next callers, and every caller must get exactly what the app gives them. The gated
 * article role table (every caller x every level, asked again and again in mixed order, with every
 * kind of bad token), the public answers byte for byte (encodings, validators, HEAD), a content
 * write, a changed access level and a deleted account each seen on the next request, and the access
 * line written for every laned answer.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_LEVELS, checkAccess, type AccessLevel, type Role } from '#shared/access.ts';
import type { PublicItem } from '#shared/content/registry.ts';
import { createTestApp, type TestApp } from '../../../tests/support/app.ts';
import type { Api, Answer, ErrorAnswer } from '../../../tests/support/answers.ts';
import { DATABASE_KINDS } from '../../../tests/support/databases.ts';
import { makeBlogInput, quietLogger } from '../../../tests/support/fixtures.ts';
import { badTokens } from '../../../tests/support/tokens.ts';
import { createApp } from '../../app.ts';
import type { AccessLog } from './access-log.ts';
import { listen } from './http-server.ts';

const PASSWORD = 'answer lane pass';
type BodyAnswer = Answer<Api['gated']['blogs'][':slug']['body']['$get']>;
type Caller = 'anonymous' | 'free' | 'subscriber' | 'premium' | 'editor';
const ACCOUNTS: Record<Exclude<Caller, 'anonymous'>, { role: Role; accessLevel: AccessLevel }> = {
  free: { role: 'member', accessLevel: 'free' },
  subscriber: { role: 'member', accessLevel: 'subscriber' },
  premium: { role: 'member', accessLevel: 'premium' },
  editor: { role: 'editor', accessLevel: 'free' },
};
const CALLERS = ['anonymous', ...Object.keys(ACCOUNTS)] as Caller[];
const ARTICLES: Record<AccessLevel, string> = {
  free: 'local-seo-playbook-baltimore',
  subscriber: 'chatbot-lead-qualification-design',
  premium: 'ecommerce-launch-first-90-days',
};

function expected(who: Caller, level: AccessLevel): number {
  if (who === 'anonymous') return 401;
  return checkAccess(ACCOUNTS[who], level).allowed ? 200 : 403;
}

describe.each(DATABASE_KINDS)('the answer lane on %s', (kind) => {
  let t: TestApp;
  let server: Server;
  let base: string;
  const tokens = {} as Record<Exclude<Caller, 'anonymous'>, string>;
  const ids = {} as Record<Exclude<Caller, 'anonymous'>, string>;
  const lines: { method: string; path: string; status: number; requestId: string }[] = [];
  let laned = 0;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', TRUST_PROXY: '0' });
    for (const who of Object.keys(ACCOUNTS) as (keyof typeof ACCOUNTS)[]) {
      const email = `${who}-${kind}@lane.test`;
      ids[who] = await t.services.auth.createConfirmedUser(email, PASSWORD, `The ${who}`);
      await t.services.users.assign(ids[who], ACCOUNTS[who].role, ACCOUNTS[who].accessLevel);
      tokens[who] = (await t.services.auth.signInWithPassword({ email, password: PASSWORD })).access_token;
    }
    const accessLog: AccessLog = {
      record: (method, path, status, _ms, requestId) => void lines.push({ method, path, status, requestId }),
      flush: () => undefined,
    };
    const app = createApp({ config: t.config, logger: quietLogger(), services: t.services, accessLog });
    // Counts the answers the lane wrote (the app's are the rest).
    const serve = app.answerLane.serve;
    app.answerLane.serve = (incoming, outgoing) => {
      const took = serve(incoming, outgoing);
      if (took) laned += 1;
      return took;
    };
    server = await listen(app, { port: 0, host: '127.0.0.1', http: t.config.http });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
  });

  // Node's fetch asks for compressed answers unless told otherwise.
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    fetch(`${base}${path}`, { method, headers: { 'accept-encoding': 'identity', ...headers } });
  const as = (who: Caller): Record<string, string> => (who === 'anonymous' ? {} : { authorization: `Bearer ${tokens[who]}` });
  /** The head without what differs per request. */
  const head = (res: Response) => Object.fromEntries([...res.headers].filter(([k]) => !['date', 'x-request-id', 'keep-alive'].includes(k)));

  it('gives every caller of a gated article what the app gives them, whoever asked first', async () => {
    const before = laned;
    // Three passes in different caller orders: after the first allowed read of each article the lane
    // holds its target, and every later caller goes through the lane's checks.
    for (const order of [
      CALLERS,
      [...CALLERS].reverse(),
      ['premium', 'anonymous', 'free', 'premium', 'subscriber', 'editor'] as Caller[],
    ]) {
      for (const level of ACCESS_LEVELS) {
        for (const who of order) {
          const res = await get(`/api/content/blogs/${ARTICLES[level]}/body`, as(who));
          expect(res.status, `${who} on ${level}`).toBe(expected(who, level));
          const body = (await res.json()) as Partial<BodyAnswer & ErrorAnswer>;
          if (res.status === 200) {
            expect(body.html, `${who} on ${level}`).toEqual(expect.any(String));
            expect(res.headers.get('cache-control')).toBe('private, no-store');
            expect(res.headers.get('vary')).toContain('Authorization');
            expect(res.headers.get('etag')).toBeNull();
          } else expect(body.error?.code).toBe(res.status === 401 ? 'unauthorized' : 'forbidden');
        }
      }
    }
    expect(laned - before, 'the lane answered the later allowed reads').toBeGreaterThan(10);
  });

  it('steps aside for every kind of bad token, and for a header that is not exactly the one verified', async () => {
    const target = `/api/content/blogs/${ARTICLES.free}/body`;
    expect((await get(target, as('premium'))).status).toBe(200);
    const bad = await badTokens(t.database.db, tokens.premium, ids.free);
    for (const [label, token] of Object.entries(bad)) {
      const res = await get(target, { authorization: `Bearer ${token}` });
      expect(res.status, label).toBe(401);
    }
    for (const header of [`bearer ${tokens.premium}`, `Bearer ${tokens.premium}x`, `Bearer  ${tokens.premium}`.slice(0, -1), 'Bearer ']) {
      const res = await get(target, { authorization: header });
      expect(res.status, header.slice(0, 12)).toBe(401);
    }
  });

  it('sees a changed access level and a deleted account on the very next request', async () => {
    const target = `/api/content/blogs/${ARTICLES.premium}/body`;
    const email = `leaving-${kind}@lane.test`;
    const id = await t.services.auth.createConfirmedUser(email, PASSWORD, 'Leaving');
    await t.services.users.assign(id, 'member', 'premium');
    const token = (await t.services.auth.signInWithPassword({ email, password: PASSWORD })).access_token;
    const auth = { authorization: `Bearer ${token}` };
    for (let i = 0; i < 3; i++) expect((await get(target, auth)).status).toBe(200);
    await t.services.users.assign(id, 'member', 'subscriber');
    expect((await get(target, auth)).status).toBe(403);
    await t.services.users.assign(id, 'member', 'premium');
    expect((await get(target, auth)).status).toBe(200);
    await t.services.users.deleteMe({ id, email, role: 'member', accessLevel: 'premium' });
    expect((await get(target, auth)).status).toBe(401);
  });

  it('writes the public answers byte for byte as the app does: encodings, validators, HEAD', async () => {
    for (const path of ['/api/public/blogs', `/api/public/blogs/${ARTICLES.free}`, '/api/public/courses']) {
      const fromApp = await t.app.request(path);
      const appBody = await fromApp.text();
      for (let i = 0; i < 3; i++) {
        const res = await get(path);
        expect(res.status).toBe(200);
        expect(await res.text()).toBe(appBody);
        expect(head(res)).toMatchObject({ ...head(fromApp), 'content-length': String(Buffer.byteLength(appBody)) });
      }
      const etag = fromApp.headers.get('etag')!;
      const notModified = await get(path, { 'if-none-match': etag });
      expect(notModified.status).toBe(304);
      expect(await notModified.text()).toBe('');
      for (const encoding of ['br', 'gzip']) {
        const res = await get(path, { 'accept-encoding': encoding });
        const expectedEncoding = Buffer.byteLength(appBody) >= 1024 ? encoding : null;
        expect(res.headers.get('content-encoding')).toBe(expectedEncoding);
        expect(await res.text()).toBe(appBody); // fetch decodes
      }
      const headOnly = await get(path, {}, 'HEAD');
      expect(headOnly.status).toBe(200);
      expect(headOnly.headers.get('content-length')).toBe(String(Buffer.byteLength(appBody)));
    }
    // Each answer names its own request, and the lane's answers are in the access log too.
    const a = await get('/api/public/blogs');
    const b = await get('/api/public/blogs');
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    expect(lines.some((l) => l.requestId === b.headers.get('x-request-id') && l.path === '/api/public/blogs' && l.status === 200)).toBe(
      true,
    );
  });

  it('shows a content write on the next request (the lane forgets in the same step)', async () => {
    const created = await t.content.create('blog', makeBlogInput({ slug: `lane-${kind}`, title: 'Lane Before', accessLevel: 'premium' }));
    const detail = `/api/public/blogs/lane-${kind}`;
    const body = `/api/content/blogs/lane-${kind}/body`;
    for (let i = 0; i < 3; i++) {
      expect(((await (await get(detail)).json()) as PublicItem).title).toBe('Lane Before');
      expect((await get(body, as('premium'))).status).toBe(200);
      expect(((await (await get('/api/public/blogs')).json()) as PublicItem[]).some((p) => p.slug === `lane-${kind}`)).toBe(true);
    }
    await t.content.update('blog', created.id, { title: 'Lane After', content: 'Rewritten body LANE-AFTER.' });
    expect(((await (await get(detail)).json()) as PublicItem).title).toBe('Lane After');
    expect(((await (await get(body, as('premium'))).json()) as BodyAnswer).html).toContain('LANE-AFTER');
    await t.content.update('blog', created.id, { accessLevel: 'subscriber' });
    expect((await get(body, as('subscriber'))).status).toBe(200);
    await t.content.update('blog', created.id, { published: false });
    expect((await get(detail)).status).toBe(404);
    expect(((await (await get('/api/public/blogs')).json()) as PublicItem[]).some((p) => p.slug === `lane-${kind}`)).toBe(false);
  });

  it('leaves writes, requests with a body and other query strings to the app', async () => {
    const before = laned;
    const res = await fetch(`${base}/api/public/blogs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect([404, 405]).toContain(res.status);
    expect((await get('/api/public/blogs?utm=1')).status).toBe(200);
    expect((await get('/api/public/nothing')).status).toBe(404);
    expect((await get('/api/public/nothing')).status).toBe(404);
    expect((await get('/api/public/blogs/no-such-post')).status).toBe(404);
    expect((await get('/api/public/blogs/no-such-post')).status).toBe(404);
    expect(laned - before).toBe(0);
  });
});
