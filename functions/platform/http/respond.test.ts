import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createErrorHandler } from '../errors.ts';
import { createAccessLog } from './access-log.ts';
import type { AppEnv } from './context.ts';
import { requestContext } from './middleware.ts';
import { answerHeaders, createAnswer, markPrivate, nodeFetch, sendCachedJson, sendStream, setAnswerHeader, varyOn } from './respond.ts';

const logged: unknown[] = [];
const logger = pino({ level: 'error' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
const answer = createAnswer([{ id: 1, title: 'cached' }]);
const shared = createAnswer([{ id: 2 }], { cacheControl: 'public, max-age=0, s-maxage=3, stale-while-revalidate=2' });

function makeApp() {
  const app = new Hono<AppEnv>();
  app.use(requestContext({ accessLog: createAccessLog(undefined, false), logger, trustProxy: 0 }));
  app.use(answerHeaders({ 'X-Content-Type-Options': 'nosniff' }));
  app.use('/tagged/*', async (c, next) => {
    setAnswerHeader(c, 'X-Middleware', 'was-here');
    varyOn(c, 'Authorization');
    await next();
  });
  app.use('/private/*', async (c, next) => {
    markPrivate(c);
    await next();
  });
  app.get('/plain/list', (c) => sendCachedJson(c, answer));
  app.get('/plain/shared', (c) => sendCachedJson(c, shared));
  app.get('/tagged/list', (c) => sendCachedJson(c, answer));
  app.get('/private/list', (c) => sendCachedJson(c, answer));
  app.get('/tagged/json', (c) => c.json({ ok: true }, 200, { Vary: 'Accept-Language' }));
  app.get('/throws-after-head', async (c) => {
    c.env.outgoing!.writeHead(200, { 'Content-Type': 'text/plain' });
    c.env.outgoing!.write('partial');
    await new Promise((r) => setTimeout(r, 30)); // the head is on the wire before the failure
    throw new Error('boom after the head');
  });
  app.get('/broken-stream', (c) => {
    let sent = false;
    const stream = new Readable({
      read() {
        if (sent) setTimeout(() => this.destroy(new Error('disk went away')), 30);
        else {
          sent = true;
          this.push(Buffer.alloc(1000, 'a'));
        }
      },
    });
    return sendStream(c, 200, { 'Content-Type': 'application/octet-stream', 'Content-Length': '5000' }, stream);
  });
  app.onError(createErrorHandler(logger));
  return app;
}

/** The raw bytes a client receives, until the server closes the connection. */
function rawExchange(port: number, path: string, method = 'GET'): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    let data = '';
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('close', () => resolve(data));
    socket.on('error', () => undefined);
  });
}

describe('the response path on a real Node socket', () => {
  let server: ServerType;
  let base: string;
  let port: number;
  beforeAll(async () => {
    server = serve({ fetch: nodeFetch(makeApp()), port: 0, hostname: '127.0.0.1' });
    await new Promise((r) => server.once('listening', r));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('sends a header set by middleware on a cached answer, with Vary lists merged', async () => {
    const res = await fetch(`${base}/tagged/list`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-middleware')).toBe('was-here');
    expect(res.headers.get('vary')).toBe('Accept-Encoding, Authorization');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.json()).toEqual([{ id: 1, title: 'cached' }]);
    const plain = await fetch(`${base}/plain/list`);
    expect(plain.headers.get('x-middleware')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
  });

  it('keeps middleware headers on 304 answers too', async () => {
    const res = await fetch(`${base}/tagged/list`, { headers: { 'if-none-match': answer.etag } });
    expect(res.status).toBe(304);
    expect(res.headers.get('x-middleware')).toBe('was-here');
  });

  it('merges a middleware Vary with the handler Vary on ordinary answers', async () => {
    const res = await fetch(`${base}/tagged/json`);
    expect(res.headers.get('vary')).toBe('Accept-Language, Authorization');
    expect(res.headers.get('x-middleware')).toBe('was-here');
  });

  it('never serves an answer marked per-user from the public cache', async () => {
    const res = await fetch(`${base}/private/list`);
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('cached');
  });

  it('closes the connection when a handler fails after the head, without a second head', async () => {
    logged.length = 0;
    const raw = await rawExchange(port, '/throws-after-head');
    expect(raw.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(raw).toContain('HTTP/1.1 200');
    expect(raw).not.toMatch(/boom|error/i);
    expect(logged).toContainEqual(expect.objectContaining({ msg: expect.stringContaining('connection closed') }));
  });

  it('closes the connection when a stream fails mid-way, leaving a truncated answer', async () => {
    logged.length = 0;
    const raw = await rawExchange(port, '/broken-stream');
    expect(raw.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
    expect(body.length).toBeLessThan(5000);
    expect(body).not.toMatch(/disk|error/i);
    await expect.poll(() => logged).toContainEqual(expect.objectContaining({ msg: expect.stringContaining('stream failed') }));
  });

  it('answers HEAD of a cached answer with one head and no body', async () => {
    const raw = await rawExchange(port, '/plain/list', 'HEAD');
    expect(raw.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(raw.endsWith('\r\n\r\n')).toBe(true);
  });
});

describe('the response path without Node (app.request)', () => {
  const app = makeApp();

  it('applies middleware headers to cached answers too', async () => {
    const res = await app.request('/tagged/list');
    expect(res.headers.get('x-middleware')).toBe('was-here');
    expect(res.headers.get('vary')).toBe('Accept-Encoding, Authorization');
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('refuses per-user answers through the public cache', async () => {
    expect((await app.request('/private/list')).status).toBe(500);
  });

  it('sends each cached answer with its own policy for shared caches, revalidation by default', async () => {
    expect((await app.request('/plain/list')).headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    expect((await app.request('/plain/shared')).headers.get('cache-control')).toBe(
      'public, max-age=0, s-maxage=3, stale-while-revalidate=2',
    );
  });
});
