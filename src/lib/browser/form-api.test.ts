import { afterEach, describe, expect, it, vi } from 'vitest';
import { GENERIC_ERROR } from './api-result.ts';
import { failureText, fieldMessage, NETWORK_ERROR, requestLead, sendContact, subscribe } from './form-api.ts';

const answer = (status: number, body: unknown) =>
  vi.fn(async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status }));

const contact = { name: 'Ada', email: 'ada@example.com', subject: 'Hello', message: 'A message long enough.', website: '' };

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("the forms' typed clients", () => {
  it('post JSON to their routes and answer the data of a 2xx answer', async () => {
    const fetch = answer(202, { status: 'pending' });
    vi.stubGlobal('fetch', fetch);
    expect(await subscribe({ email: 'a@b.co' })).toEqual({ ok: true, data: { status: 'pending' } });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/newsletter/subscribe');
    expect(init.method).toBe('POST');
    expect(new Headers(init.headers).get('content-type')).toBe('application/json');
    expect(new Headers(init.headers).get('authorization')).toBeNull();
    expect(JSON.parse(init.body as string)).toEqual({ email: 'a@b.co' });
    fetch.mockClear();
    await sendContact(contact);
    await requestLead({ email: 'a@b.co', toolId: 'kit' });
    expect((fetch.mock.calls as unknown as [string][]).map(([path]) => path)).toEqual(['/api/contact', '/api/leads']);
  });

  it('read the API error shape, field messages included', async () => {
    const body = { error: { code: 'validation_failed', message: 'Check the form.', fields: { email: ['Enter a valid email address'] } } };
    vi.stubGlobal('fetch', answer(422, body));
    const result = await sendContact(contact);
    expect(result).toEqual({
      ok: false,
      kind: 'error',
      status: 422,
      code: 'validation_failed',
      message: 'Check the form.',
      fields: { email: ['Enter a valid email address'] },
    });
    expect(!result.ok && failureText(result)).toBe('Check the form.');
    expect(!result.ok && fieldMessage(result, 'email')).toBe('Enter a valid email address');
    expect(!result.ok && fieldMessage(result, 'name')).toBeUndefined();
  });

  it("show the server's message of a 5xx as it wrote it", async () => {
    vi.stubGlobal('fetch', answer(500, { error: { code: 'internal', message: 'Something went wrong on our side. Please try again.' } }));
    const result = await sendContact(contact);
    expect(result).toEqual({
      ok: false,
      kind: 'error',
      status: 500,
      code: 'internal',
      message: 'Something went wrong on our side. Please try again.',
    });
  });

  it('fall back to a generic message when an error answer is not the API shape', async () => {
    // A 502 is retried first (write-fetch.ts): the fake clock skips the pauses between the tries.
    vi.useFakeTimers();
    vi.stubGlobal('fetch', answer(502, '<html>Bad gateway</html>'));
    const posted = sendContact(contact);
    await vi.runAllTimersAsync();
    const result = await posted;
    expect(result).toEqual({ ok: false, kind: 'error', status: 502, message: GENERIC_ERROR });
    expect(!result.ok && failureText(result)).toBe(GENERIC_ERROR);
  });

  it('report a network failure without a status and without throwing, once its retries under the same key failed too', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn(async () => Promise.reject(new TypeError('Failed to fetch')));
    vi.stubGlobal('fetch', fetch);
    const posted = sendContact(contact);
    await vi.runAllTimersAsync();
    const result = await posted;
    expect(result).toEqual({ ok: false, kind: 'error', message: GENERIC_ERROR });
    expect(!result.ok && failureText(result)).toBe(NETWORK_ERROR);
    vi.useRealTimers();
    const keys = (fetch.mock.calls as unknown as [string, RequestInit][]).map(([, init]) =>
      new Headers(init.headers).get('idempotency-key'),
    );
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
  });

  it('send every submission with an Idempotency-Key of its own', async () => {
    const fetch = answer(201, { status: 'received' });
    vi.stubGlobal('fetch', fetch);
    await sendContact(contact);
    await sendContact(contact);
    const keys = (fetch.mock.calls as unknown as [string, RequestInit][]).map(([, init]) =>
      new Headers(init.headers).get('idempotency-key'),
    );
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[0]).not.toBe(keys[1]);
  });
});
