import { Hono } from 'hono';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createErrorHandler } from '../errors.ts';
import type { AppEnv } from './context.ts';
import { refuseCrossSiteWrites } from './middleware.ts';

const SITE = 'https://www.example.com';

function makeApp() {
  const app = new Hono<AppEnv>();
  app.use(refuseCrossSiteWrites(SITE));
  app.post('/write', (c) => c.json({ ok: true }));
  app.onError(createErrorHandler(pino({ level: 'silent' })));
  return app;
}

const post = (headers: Record<string, string>) =>
  makeApp().request(`${SITE}/write`, { method: 'POST', headers: { host: 'www.example.com', ...headers } });

describe('refuseCrossSiteWrites', () => {
  it('accepts a form posted from a no-referrer page of our own (Origin null, Sec-Fetch-Site same-origin)', async () => {
    // What Chromium sends for the mailed-link pages, whose Referrer-Policy is no-referrer.
    const res = await post({ origin: 'null', 'sec-fetch-site': 'same-origin' });
    expect(res.status).toBe(200);
  });

  it('accepts our own origin and clients that send neither header', async () => {
    expect((await post({ origin: SITE, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await post({ origin: SITE })).status).toBe(200);
    expect((await post({})).status).toBe(200);
  });

  it.each([
    [{ origin: 'null' }],
    [{ origin: 'null', 'sec-fetch-site': 'same-site' }],
    [{ origin: 'null', 'sec-fetch-site': 'cross-site' }],
    [{ origin: 'https://evil.example' }],
    [{ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }],
    [{ origin: SITE, 'sec-fetch-site': 'same-site' }],
    [{ 'sec-fetch-site': 'cross-site' }],
  ])('refuses %j with 403 forbidden', async (headers) => {
    const res = await post(headers);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 'forbidden', message: 'Requests from other sites are not accepted.' } });
  });
});
