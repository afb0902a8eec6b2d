import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RETRY_DELAYS_MS, sendAction } from './write-fetch.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const running = () => json(409, { error: { code: 'request_in_progress', message: 'Still running.' } });
const down = () => Promise.reject(new TypeError('Failed to fetch'));

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
/** The Idempotency-Key of each request sent so far. */
const keys = () => fetchMock.mock.calls.map(([, init]) => (init as { headers: Record<string, string> }).headers['idempotency-key']);

beforeEach(() => {
  vi.useFakeTimers();
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('sendAction', () => {
  it('sends each write with a key of its own: 32 hex digits, new for every action', async () => {
    fetchMock.mockImplementation(async () => json(201, {}));
    await sendAction('/api/contact', { method: 'POST', headers: {} });
    await sendAction('/api/contact', { method: 'post', headers: {} });
    const [one, two] = keys();
    expect(one).toMatch(/^[0-9a-f]{32}$/);
    expect(two).toMatch(/^[0-9a-f]{32}$/);
    expect(one).not.toBe(two);
  });

  it('retries a network failure under the same key, twice at most, after a pause', async () => {
    fetchMock.mockImplementationOnce(down).mockImplementationOnce(down).mockImplementationOnce(down);
    const sent = sendAction('/api/contact', { method: 'POST', headers: {}, body: '{}' });
    const failed = expect(sent).rejects.toThrow('Failed to fetch');
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[0]! - 1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1 + RETRY_DELAYS_MS[1]!);
    await failed;
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(new Set(keys()).size).toBe(1);
  });

  it('retries a proxy’s 502 and 504 (the instance behind it died) like a network failure', async () => {
    fetchMock
      .mockImplementationOnce(async () => new Response('Bad gateway', { status: 502 }))
      .mockImplementationOnce(async () => new Response('Gateway timeout', { status: 504 }))
      .mockImplementationOnce(async () => new Response('Bad gateway', { status: 502 }));
    const sent = sendAction('/api/contact', { method: 'POST', headers: {} });
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[0]! + RETRY_DELAYS_MS[1]!);
    expect((await sent).status).toBe(502);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(new Set(keys()).size).toBe(1);
  });

  it('answers the retry that got through', async () => {
    fetchMock.mockImplementationOnce(down).mockImplementationOnce(async () => json(201, { status: 'received' }));
    const sent = sendAction('/api/contact', { method: 'POST', headers: {} });
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[0]!);
    expect((await sent).status).toBe(201);
    expect(new Set(keys()).size).toBe(1);
  });

  it('asks again while the first attempt runs, three times at most, under the same key', async () => {
    fetchMock.mockImplementation(async () => running());
    const sent = sendAction('/api/support/requests', { method: 'POST', headers: {} });
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS.reduce((a, b) => a + b));
    expect((await sent).status).toBe(409);
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expect(new Set(keys()).size).toBe(1);
  });

  it('answers any other 409 at once', async () => {
    fetchMock.mockImplementation(async () => json(409, { error: { code: 'conflict', message: 'This event is full.' } }));
    expect((await sendAction('/api/events/x/registration', { method: 'POST', headers: {} })).status).toBe(409);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('keeps a key the caller chose', async () => {
    fetchMock.mockImplementation(async () => json(200, {}));
    await sendAction('/api/x', { method: 'PUT', headers: { 'idempotency-key': 'mine' } });
    expect(keys()).toEqual(['mine']);
  });

  it('sends reads as they are: no key, no retry', async () => {
    fetchMock.mockImplementation(down);
    await expect(sendAction('/api/users/me', { method: 'GET', headers: {} })).rejects.toThrow();
    await expect(sendAction('/api/users/me', { headers: {} })).rejects.toThrow();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(keys()).toEqual([undefined, undefined]);
  });

  it('stops waiting when the caller gives up', async () => {
    fetchMock.mockImplementation(down);
    const controller = new AbortController();
    const sent = sendAction('/api/contact', { method: 'POST', headers: {}, signal: controller.signal });
    const stopped = expect(sent).rejects.toBe('left the page');
    await vi.advanceTimersByTimeAsync(10);
    controller.abort('left the page');
    await stopped;
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[0]!);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
