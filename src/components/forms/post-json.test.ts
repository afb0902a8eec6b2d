import { afterEach, describe, expect, it, vi } from 'vitest';
import { fieldMessage, GENERIC_ERROR, NETWORK_ERROR, postJson } from './post-json.ts';

const answer = (status: number, body: unknown) =>
  vi.fn(async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status }));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('postJson', () => {
  it('posts JSON and returns the data of a 2xx answer', async () => {
    const fetch = answer(202, { status: 'pending' });
    vi.stubGlobal('fetch', fetch);
    expect(await postJson('/api/newsletter/subscribe', { email: 'a@b.co' })).toEqual({
      ok: true,
      status: 202,
      data: { status: 'pending' },
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/newsletter/subscribe');
    expect(init.method).toBe('POST');
    expect(new Headers(init.headers).get('content-type')).toBe('application/json');
    expect(JSON.parse(init.body as string)).toEqual({ email: 'a@b.co' });
  });

  it('reads the API error shape, field messages included', async () => {
    const body = { error: { code: 'validation_failed', message: 'Check the form.', fields: { email: ['Enter a valid email address'] } } };
    vi.stubGlobal('fetch', answer(422, body));
    const result = await postJson('/api/contact', {});
    expect(result).toMatchObject({ ok: false, status: 422, error: { code: 'validation_failed', message: 'Check the form.' } });
    expect(!result.ok && fieldMessage(result.error, 'email')).toBe('Enter a valid email address');
    expect(!result.ok && fieldMessage(result.error, 'name')).toBeUndefined();
  });

  it('falls back to a generic message when an error answer is not the API shape', async () => {
    // A 502 is retried first (write-fetch.ts): the fake clock skips the pauses between the tries.
    vi.useFakeTimers();
    vi.stubGlobal('fetch', answer(502, '<html>Bad gateway</html>'));
    const posted = postJson('/api/contact', {});
    await vi.runAllTimersAsync();
    expect(await posted).toEqual({ ok: false, status: 502, error: { code: 'unknown', message: GENERIC_ERROR } });
  });

  it('reports a network failure as status 0 without throwing, once its retries under the same key failed too', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn(async () => Promise.reject(new TypeError('Failed to fetch')));
    vi.stubGlobal('fetch', fetch);
    const posted = postJson('/api/contact', {});
    await vi.runAllTimersAsync();
    expect(await posted).toEqual({ ok: false, status: 0, error: { code: 'network', message: NETWORK_ERROR } });
    vi.useRealTimers();
    const keys = (fetch.mock.calls as unknown as [string, RequestInit][]).map(([, init]) =>
      new Headers(init.headers).get('idempotency-key'),
    );
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
  });

  it('sends every submission with an Idempotency-Key of its own', async () => {
    const fetch = answer(201, { status: 'received' });
    vi.stubGlobal('fetch', fetch);
    await postJson('/api/contact', {});
    await postJson('/api/contact', {});
    const keys = (fetch.mock.calls as unknown as [string, RequestInit][]).map(([, init]) =>
      new Headers(init.headers).get('idempotency-key'),
    );
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[0]).not.toBe(keys[1]);
  });
});
