/**
 * The OpenAI adapter against a local OpenAI-compatible server (node:http on loopback): what it sends
 * (the spec's prompt, strict JSON-schema output made from DraftSchema) and how each kind of answer
 * comes back: a valid draft, malformed JSON, an answer that is not a draft, a timeout, 429, 500, a
 * refusal, a cut-off answer and an unreachable server.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors.ts';
import { quietLogger } from '../../tests/support/fixtures.ts';
import { loadConfig } from '../config.ts';
import { draftRequest } from './draft.ts';
import { pickDrafter } from './index.ts';
import { createOpenAiDrafter } from './openai.ts';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

const DRAFT = {
  title: 'Local SEO for Bakeries',
  description: 'How a neighbourhood bakery gets found on maps and in search, step by step.',
  body: '## Why it matters\n\nMost customers search before they walk in.\n\n- Claim your profile\n- Ask for reviews',
  tags: ['Local SEO', 'Small Business'],
};

function completion(content: string | null, extra: Record<string, unknown> = {}) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_795_000_000,
    model: 'test-model',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content, refusal: null, ...extra } }],
  };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

describe('OpenAI drafter against a local compatible server', () => {
  let server: Server;
  let baseUrl: string;
  let handler: Handler;
  const seen: { path: string; auth: string | undefined; body: Record<string, unknown> }[] = [];
  const sockets = new Set<import('node:net').Socket>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        seen.push({ path: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(body || '{}') as Record<string, unknown> });
        handler(req, body, res);
      });
    });
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    seen.length = 0;
  });

  const drafter = (timeoutMs = 2000) =>
    createOpenAiDrafter({ apiKey: 'sk-test-local', baseUrl, model: 'test-model', timeoutMs, logger: quietLogger() });
  const request = draftRequest('Generate a blog about: local SEO for bakeries');

  async function failure(promise: Promise<unknown>): Promise<AppError> {
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }

  it('sends the spec prompt with a strict JSON schema made from the draft schema, and returns the draft', async () => {
    handler = (_req, _body, res) => json(res, 200, completion(JSON.stringify(DRAFT)));
    const draft = await drafter().draft(request);
    expect(draft).toEqual(DRAFT);
    expect(seen).toHaveLength(1);
    const sent = seen[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.auth).toBe('Bearer sk-test-local');
    expect(sent.body.model).toBe('test-model');
    const messages = sent.body.messages as { role: string; content: string }[];
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'Generate a blog about: local SEO for bakeries' });
    const format = sent.body.response_format as { type: string; json_schema: { strict: boolean; schema: Record<string, unknown> } };
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.strict).toBe(true);
    expect(format.json_schema.schema).toMatchObject({
      type: 'object',
      required: ['title', 'description', 'body', 'tags'],
      additionalProperties: false,
      properties: { title: { type: 'string', minLength: 3 }, description: { type: 'string', minLength: 10 }, tags: { type: 'array' } },
    });
  });

  it('tidies what it can (control characters, duplicate tags) before checking', async () => {
    handler = (_req, _body, res) =>
      json(res, 200, completion(JSON.stringify({ ...DRAFT, title: ' Local\u0000 SEO\nfor Bakeries ', tags: ['SEO', 'seo', ' Maps '] })));
    const draft = await drafter().draft(request);
    expect(draft.title).toBe('Local SEO for Bakeries');
    expect(draft.tags).toEqual(['SEO', 'Maps']);
  });

  it('answers 503 for malformed JSON in the model answer', async () => {
    handler = (_req, _body, res) => json(res, 200, completion('{"title": "Local SEO", "description": '));
    const err = await failure(drafter().draft(request));
    expect(err.status).toBe(503);
    expect(err.message).toMatch(/not a valid draft/);
  });

  it('answers 503 for a JSON answer that is not a draft (missing fields, too short, wrong types)', async () => {
    for (const bad of [{ title: 'x' }, { ...DRAFT, title: 'ab' }, { ...DRAFT, tags: 'SEO' }, { ...DRAFT, body: '' }, [DRAFT], null]) {
      handler = (_req, _body, res) => json(res, 200, completion(JSON.stringify(bad)));
      const err = await failure(drafter().draft(request));
      expect(err.status, JSON.stringify(bad)).toBe(503);
    }
  });

  it('answers 503 when the server sends a body that is not JSON at all, or no choices', async () => {
    handler = (_req, _body, res) => json(res, 200, '<html>bad gateway</html>');
    expect((await failure(drafter().draft(request))).status).toBe(503);
    handler = (_req, _body, res) => json(res, 200, { id: 'x', choices: [] });
    expect((await failure(drafter().draft(request))).status).toBe(503);
  });

  it('answers 503 after its timeout when the server does not answer, without retrying', async () => {
    handler = () => undefined; // never answers
    const started = performance.now();
    const err = await failure(drafter(300).draft(request));
    expect(err.status).toBe(503);
    expect(err.message).toMatch(/did not answer in time/);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(seen).toHaveLength(1);
  });

  it('passes the provider’s 429 through as rate_limited with its Retry-After', async () => {
    handler = (_req, _body, res) =>
      json(res, 429, { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }, { 'retry-after': '17' });
    const err = await failure(drafter().draft(request));
    expect(err.status).toBe(429);
    expect(err.code).toBe('rate_limited');
    expect(err.headers?.['Retry-After']).toBe('17');
    expect(seen).toHaveLength(1);
  });

  it('answers 503 for the provider’s 500 and for a refused key, without its message', async () => {
    handler = (_req, _body, res) => json(res, 500, { error: { message: 'internal secret detail', type: 'server_error' } });
    let err = await failure(drafter().draft(request));
    expect(err.status).toBe(503);
    expect(err.message).not.toMatch(/secret detail/);
    handler = (_req, _body, res) =>
      json(res, 401, { error: { message: 'Incorrect API key provided: sk-test-****', type: 'invalid_request_error' } });
    err = await failure(drafter().draft(request));
    expect(err.status).toBe(503);
    expect(err.message).not.toMatch(/API key/);
  });

  it('answers 422 with the model’s refusal, and 503 for an answer cut off at the token limit', async () => {
    handler = (_req, _body, res) => json(res, 200, completion(null, { refusal: 'I can’t help with that.' }));
    const refused = await failure(drafter().draft(request));
    expect(refused.status).toBe(422);
    expect(refused.fields?.prompt).toEqual(['I can’t help with that.']);
    handler = (_req, _body, res) => {
      const answer = completion('{"title": "Local SEO for Bak');
      answer.choices[0]!.finish_reason = 'length';
      json(res, 200, answer);
    };
    expect((await failure(drafter().draft(request))).message).toMatch(/cut off/);
  });

  it('answers 503 when the server cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = createOpenAiDrafter({
      apiKey: 'sk-test-local',
      baseUrl: `http://127.0.0.1:${port}/v1`,
      model: 'test-model',
      timeoutMs: 2000,
      logger: quietLogger(),
    });
    const err = await failure(unreachable.draft(request));
    expect(err.status).toBe(503);
    expect(err.message).toMatch(/could not be reached/);
  });
});

describe('picking the drafter from configuration', () => {
  const deps = { logger: quietLogger(), catalogue: async () => [] };

  it('uses the offline drafter without OPENAI_API_KEY, and the OpenAI adapter with one', async () => {
    expect((await pickDrafter(loadConfig({}).ai, deps)).kind).toBe('offline');
    expect((await pickDrafter(loadConfig({ OPENAI_API_KEY: '  ' }).ai, deps)).kind).toBe('offline');
    const config = loadConfig({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1/' });
    expect(config.ai.openai).toEqual({ apiKey: 'sk-test', baseUrl: 'http://127.0.0.1:11434/v1', model: 'gpt-5.4-mini', timeoutMs: 45_000 });
    expect((await pickDrafter(config.ai, deps)).kind).toBe('openai');
  });

  it('refuses a bad base URL or timeout by name', () => {
    expect(() => loadConfig({ OPENAI_BASE_URL: 'ftp://example.com' })).toThrow(/OPENAI_BASE_URL/);
    expect(() => loadConfig({ OPENAI_TIMEOUT_MS: '10' })).toThrow(/OPENAI_TIMEOUT_MS/);
  });
});
