/**
 * POST /openai/generate's role table on both databases: anonymous, each access level and each staff
 * role, with the status each gets (only editors and admins draft). Plus bad tokens and bad bodies
 * (4xx, never 5xx, nothing counted), the per-user rate limit, the answer's shape from the offline
 * drafter, and the OpenAI adapter behind the route against a local compatible server (a malformed
 * answer and a provider failure are 503, the provider's 429 stays 429, never a 500).
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AccessLevel, Role } from '#shared/access.ts';
import { createApp } from '../app.ts';
import { rateLimits } from '../platform/abuse/tables.ts';
import { createTestApp, type TestApp } from '../../tests/support/app.ts';
import type { Api, Answer, ErrorAnswer } from '../../tests/support/answers.ts';
import { DATABASE_KINDS } from '../../tests/support/databases.ts';
import { quietLogger } from '../../tests/support/fixtures.ts';
import { badTokens } from '../../tests/support/tokens.ts';
import { DraftSchema, type Drafter } from './draft.ts';
import { OFFLINE_NOTE } from './offline.ts';
import { createOpenAiDrafter } from './openai.ts';
import { GENERATE_LIMIT, MAX_PROMPT_LENGTH } from './routes.ts';

const PASSWORD = 'ai drafting table pass';
type Caller = 'anonymous' | 'free' | 'subscriber' | 'premium' | 'editor' | 'admin';
type DraftAnswer = Answer<Api['ai']['generate']['$post']>;
const SIGNED_IN: Exclude<Caller, 'anonymous'>[] = ['free', 'subscriber', 'premium', 'editor', 'admin'];
const CALLERS: Caller[] = ['anonymous', ...SIGNED_IN];
const ACCOUNTS: Record<Exclude<Caller, 'anonymous'>, { role: Role; accessLevel: AccessLevel }> = {
  free: { role: 'member', accessLevel: 'free' },
  subscriber: { role: 'member', accessLevel: 'subscriber' },
  premium: { role: 'member', accessLevel: 'premium' },
  editor: { role: 'editor', accessLevel: 'free' },
  admin: { role: 'admin', accessLevel: 'premium' },
};
const EXPECTED: Record<Caller, number> = { anonymous: 401, free: 403, subscriber: 403, premium: 403, editor: 200, admin: 200 };
const PROMPT = 'Generate a blog about: local SEO for bakeries';

describe.each(DATABASE_KINDS)('AI drafting on %s', (kind) => {
  let t: TestApp;
  const ids = {} as Record<Exclude<Caller, 'anonymous'>, string>;
  const tokens = {} as Record<Exclude<Caller, 'anonymous'>, string>;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', EMAIL_WORKER: 'false' });
    for (const who of SIGNED_IN) {
      const email = `${who}-${kind}@ai-table.test`;
      ids[who] = await t.services.auth.createConfirmedUser(email, PASSWORD, `The ${who}`);
      await t.services.users.assign(ids[who], ACCOUNTS[who].role, ACCOUNTS[who].accessLevel);
      tokens[who] = (await t.services.auth.signInWithPassword({ email, password: PASSWORD })).access_token;
    }
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.database.db.delete(rateLimits);
  });

  function generate(who: Caller, body: unknown = { prompt: PROMPT }, app = t.app, headers: Record<string, string> = {}) {
    return app.request('/openai/generate', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(who !== 'anonymous' ? { authorization: `Bearer ${tokens[who]}` } : {}),
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }
  const counted = async () => (await t.database.db.select().from(rateLimits)).length;

  it('refuses an editor whose session has signed out, counting nothing', async () => {
    const { access_token: token } = await t.services.auth.signInWithPassword({ email: `editor-${kind}@ai-table.test`, password: PASSWORD });
    await t.services.auth.logout(`Bearer ${token}`, 'local');
    const res = await generate('anonymous', { prompt: PROMPT }, t.app, { authorization: `Bearer ${token}` });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 'unauthorized', message: 'Your session has ended. Please sign in again.' } });
    expect(await counted()).toBe(0);
  });

  it.each(CALLERS)('answers %s as the table says, counting only staff drafts', async (who) => {
    const res = await generate(who);
    expect(res.status, await res.clone().text()).toBe(EXPECTED[who]);
    expect(res.headers.get('cache-control')).toMatch(/private|no-store/);
    if (EXPECTED[who] !== 200) {
      const body = (await res.json()) as ErrorAnswer;
      expect(body.error.code).toBe(who === 'anonymous' ? 'unauthorized' : 'forbidden');
      expect(await counted()).toBe(0);
    } else {
      expect(await counted()).toBe(1);
    }
  });

  it('answers the spec’s shape: a valid draft, marked offline when no model is configured', async () => {
    expect(t.services.drafter.kind).toBe('offline');
    const res = await generate('editor', { prompt: 'Generate a course about: email marketing for online shops' });
    const body = (await res.json()) as DraftAnswer;
    expect(Object.keys(body.content as object).sort()).toEqual(['body', 'description', 'tags', 'title']);
    const draft = DraftSchema.parse(body.content);
    expect(draft.body.startsWith(OFFLINE_NOTE)).toBe(true);
    expect(draft.body).toMatch(/## Modules/);
    expect(draft.title.toLowerCase()).toContain('email marketing');
    expect(body.source).toBe('offline');
    // With the type sent alongside, the prompt is the user's text alone.
    const typed = await generate('admin', { prompt: 'seasonal menu photos', type: 'market' });
    expect(((await typed.json()) as DraftAnswer).content.body).toMatch(/## What is included/);
  });

  it('refuses every kind of bad token with 401', async () => {
    for (const [label, token] of Object.entries(await badTokens(t.database.db, tokens.admin, ids.free))) {
      const res = await generate('anonymous', { prompt: PROMPT }, t.app, { authorization: `Bearer ${token}` });
      expect(res.status, label).toBe(401);
    }
    expect(await counted()).toBe(0);
  });

  it('refuses bad bodies with a clear 4xx, never a 5xx, and counts none of them', async () => {
    const bodies: [unknown, number][] = [
      [{}, 422],
      [{ prompt: '' }, 422],
      [{ prompt: '   ' }, 422],
      [{ prompt: 42 }, 422],
      [{ prompt: ['a'] }, 422],
      [{ prompt: null }, 422],
      [{ prompt: 'x'.repeat(MAX_PROMPT_LENGTH + 1) }, 422],
      [{ prompt: 'nul \u0000 inside' }, 422],
      [{ prompt: 'escape \u001b[31m' }, 422],
      [{ prompt: 'ok', type: 'podcast' }, 422],
      [{ prompt: 'ok', extra: true }, 422],
      ['{"prompt": "unterminated', 400],
      ['[1, 2]', 422],
      ['null', 422],
    ];
    for (const [body, status] of bodies) {
      const res = await generate('admin', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      const answer = (await res.json()) as ErrorAnswer;
      expect(answer.error.message).toEqual(expect.any(String));
    }
    const res = await t.app.request('/openai/generate', {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.admin}`, 'content-type': 'text/plain' },
      body: PROMPT,
    });
    expect(res.status).toBe(415);
    expect(await counted()).toBe(0);
    // Line breaks in the prompt box are fine.
    expect((await generate('admin', { prompt: 'Generate a tool about: line one\nline two' })).status).toBe(200);
  });

  it('refuses cross-site writes and other methods', async () => {
    expect((await generate('admin', { prompt: PROMPT }, t.app, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await generate('admin', { prompt: PROMPT }, t.app, { origin: 'https://evil.example' })).status).toBe(403);
    const get = await t.app.request('/openai/generate', { headers: { authorization: `Bearer ${tokens.admin}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await t.app.request('/openai/nothing', { method: 'POST' })).status).toBe(404);
  });

  it(`rate-limits each user to ${GENERATE_LIMIT.max} drafts per window, with Retry-After`, async () => {
    for (let i = 0; i < GENERATE_LIMIT.max; i++) {
      const res = await generate('editor', { prompt: `topic number ${i}` });
      expect(res.status, `draft ${i + 1}`).toBe(200);
    }
    const limited = await generate('editor');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited.json()) as ErrorAnswer).error.code).toBe('rate_limited');
    // Another staff member is not affected.
    expect((await generate('admin')).status).toBe(200);
  });

  it('answers 503, never 500, when a drafter returns something that is not a draft', async () => {
    const broken: Drafter = { kind: 'openai', draft: async () => ({ title: 'x' }) as never };
    const app = createApp({ config: t.config, logger: quietLogger(), services: { ...t.services, drafter: broken } });
    const res = await generate('editor', { prompt: PROMPT }, app);
    expect(res.status).toBe(503);
    expect(((await res.json()) as ErrorAnswer).error.code).toBe('unavailable');
  });

  describe('with the OpenAI adapter against a local compatible server', () => {
    let server: Server;
    let answer: (res: ServerResponse) => void;
    let app: TestApp['app'];
    const prompts: string[] = [];

    beforeAll(async () => {
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          const sent = JSON.parse(body) as { messages: { role: string; content: string }[] };
          prompts.push(sent.messages.at(-1)!.content);
          answer(res);
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const drafter = createOpenAiDrafter({
        apiKey: 'sk-test-local',
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        model: 'test-model',
        timeoutMs: 2000,
        logger: quietLogger(),
      });
      app = createApp({ config: t.config, logger: quietLogger(), services: { ...t.services, drafter } });
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const reply =
      (status: number, body: unknown, headers: Record<string, string> = {}) =>
      (res: ServerResponse) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
    const completion = (content: string) => ({
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'test-model',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content, refusal: null } }],
    });

    it('passes the spec prompt to the model and answers its draft', async () => {
      const draft = {
        title: 'Pricing Pages That Sell',
        description: 'What to put on a pricing page.',
        body: '## Start here\n\nText.',
        tags: ['Pricing'],
      };
      answer = reply(200, completion(JSON.stringify(draft)));
      const res = await generate('editor', { prompt: 'pricing pages', type: 'tool' }, app);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ content: draft, source: 'openai' });
      expect(prompts.at(-1)).toBe('Generate a tool about: pricing pages');
    });

    it('answers 503 for a malformed answer and for the provider’s 500, 429 for its 429', async () => {
      answer = reply(200, completion('{"title": "Half a dra'));
      expect((await generate('editor', { prompt: PROMPT }, app)).status).toBe(503);
      answer = reply(500, { error: { message: 'boom', type: 'server_error' } });
      expect((await generate('editor', { prompt: PROMPT }, app)).status).toBe(503);
      answer = reply(429, { error: { message: 'slow down', type: 'requests' } }, { 'retry-after': '20' });
      const limited = await generate('editor', { prompt: PROMPT }, app);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('20');
    });
  });
});
