import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const getSession = vi.fn();
vi.mock('./auth/client.ts', () => ({ authClient: () => ({ auth: { getSession } }) }));

const { fetchArticleBody, fetchLesson, itemDownloadLink, onSessionChange, recordCourseProgress, storedSession } = await import('./api.ts');
const { createItem, deleteItem } = await import('./create.ts');

/** localStorage as browsers expose it: stored keys are the object's own keys. */
class FakeStorage {
  [key: string]: unknown;
  getItem(key: string): string | null {
    return Object.hasOwn(this, key) ? (this[key] as string) : null;
  }
  setItem(key: string, value: string): void {
    this[key] = value;
  }
}

const KEY = 'sb-127-auth-token';
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
const session = (token: string, expiresAt = inAnHour()) =>
  JSON.stringify({ access_token: token, expires_at: expiresAt, user: { id: 'user-1' } });
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let storage: FakeStorage;
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  storage = new FakeStorage();
  fetchMock = vi.fn();
  vi.stubGlobal('localStorage', storage);
  vi.stubGlobal('window', new EventTarget());
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  getSession.mockReset();
});

describe('gated calls', () => {
  it('answers signed-out without asking the server when no session is stored', async () => {
    expect(await fetchArticleBody('post')).toEqual({ ok: false, kind: 'signed-out' });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the stored bearer token and answers the data', async () => {
    storage.setItem(KEY, session('token-a'));
    fetchMock.mockResolvedValue(json(200, { html: '<p>Body</p>' }));
    expect(await fetchArticleBody('a post')).toEqual({ ok: true, data: { html: '<p>Body</p>' } });
    const [path, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(path).toBe('/api/content/blogs/a%20post/body');
    expect(init.method).toBe('GET');
    expect(init.headers).toMatchObject({ authorization: 'Bearer token-a' });
  });

  it('maps 401, 403, 404, 5xx and network failures to typed results', async () => {
    storage.setItem(KEY, session('token-a'));
    fetchMock.mockResolvedValueOnce(json(401, { error: { code: 'unauthorized', message: 'Please sign in.' } }));
    expect(await fetchLesson('course', 'lesson')).toEqual({ ok: false, kind: 'signed-out' });
    fetchMock.mockResolvedValueOnce(json(403, { error: { code: 'forbidden', message: 'No', requiredLevel: 'premium' } }));
    expect(await fetchLesson('course', 'lesson')).toEqual({ ok: false, kind: 'forbidden', requiredLevel: 'premium' });
    fetchMock.mockResolvedValueOnce(json(404, { error: { code: 'not_found', message: 'Lesson not found' } }));
    expect(await fetchLesson('course', 'lesson')).toEqual({ ok: false, kind: 'not-found', message: 'Lesson not found' });
    fetchMock.mockResolvedValueOnce(new Response('oops', { status: 503 }));
    expect(await fetchLesson('course', 'lesson')).toMatchObject({ ok: false, kind: 'error' });
    fetchMock.mockRejectedValueOnce(new TypeError('network down'));
    expect(await itemDownloadLink('tools', 'kit')).toMatchObject({ ok: false, kind: 'error' });
  });

  it("answers a 204 as success without a body, and passes a 422's field errors on", async () => {
    storage.setItem(KEY, session('token-a'));
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    expect(await deleteItem('blog', 'x')).toEqual({ ok: true, data: null });
    expect((fetchMock.mock.calls[0] as [string, RequestInit])[0]).toBe('/api/content/blogs/x');
    fetchMock.mockResolvedValueOnce(
      json(422, { error: { code: 'validation_failed', message: 'Some fields are not valid.', fields: { title: ['Too short'] } } }),
    );
    expect(await createItem('blog', {})).toMatchObject({
      ok: false,
      kind: 'error',
      status: 422,
      fields: { title: ['Too short'] },
    });
  });

  it('sends JSON bodies for writes', async () => {
    storage.setItem(KEY, session('token-a'));
    fetchMock.mockResolvedValue(json(200, { courseSlug: 'c', completed: ['l1'], lastLessonId: 'l1', total: 3 }));
    await recordCourseProgress('c', { lessonId: 'l1', completed: true });
    const [path, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(path).toBe('/api/content/courses/c/progress');
    expect(init).toMatchObject({ method: 'PUT', body: '{"lessonId":"l1","completed":true}' });
    expect(init.headers).toMatchObject({ 'content-type': 'application/json', 'idempotency-key': expect.stringMatching(/^[0-9a-f]{32}$/) });
  });

  it('sends reads without an Idempotency-Key', async () => {
    storage.setItem(KEY, session('token-a'));
    fetchMock.mockResolvedValue(json(200, { html: '<p>Body</p>' }));
    await fetchArticleBody('post');
    expect((fetchMock.mock.calls[0] as [string, RequestInit])[1].headers).not.toHaveProperty('idempotency-key');
  });

  it('refreshes an expired token through the auth client first, and says the session changed', async () => {
    storage.setItem(KEY, session('old-token', Math.floor(Date.now() / 1000) - 10));
    getSession.mockResolvedValue({ data: { session: { access_token: 'new-token' } } });
    fetchMock.mockResolvedValue(json(200, { url: '/api/files/download?token=x', expiresAt: 'later' }));
    const changed = vi.fn();
    const stop = onSessionChange(changed);
    await itemDownloadLink('market', 'kit');
    stop();
    expect(getSession).toHaveBeenCalledOnce();
    expect((fetchMock.mock.calls[0] as [string, RequestInit])[1].headers).toMatchObject({ authorization: 'Bearer new-token' });
    expect(changed).toHaveBeenCalled();
  });
});

describe('the stored session', () => {
  it('is read from the auth client key and kept as one object while unchanged', () => {
    storage.setItem('sb-127-auth-token-code-verifier', 'x');
    expect(storedSession()).toBeNull();
    storage.setItem(KEY, session('token-a'));
    const first = storedSession();
    expect(first).toMatchObject({ accessToken: 'token-a', userId: 'user-1' });
    expect(storedSession()).toBe(first);
    storage.setItem(KEY, session('token-b'));
    expect(storedSession()?.accessToken).toBe('token-b');
  });

  it('is null when the stored value is not a session', () => {
    storage.setItem(KEY, '{not json');
    expect(storedSession()).toBeNull();
    storage.setItem(KEY, JSON.stringify({ access_token: 'x' }));
    expect(storedSession()).toBeNull();
  });
});
