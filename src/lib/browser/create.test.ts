/**
 * The create form's upload client, with the browser's fetch, XMLHttpRequest and stored session
 * stood in: it asks the server first, then sends the file straight to the bucket and completes it,
 * or posts it to the server (local disk, a bucket the browser cannot reach, a file without a type).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { uploadFile } from './create.ts';

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** An XMLHttpRequest that answers `status` (or fails as an unreachable host does for `network`). */
function fakeXhr(sent: Sent[], answer: (request: Sent) => { status: number; body?: string } | 'network') {
  return class {
    upload: { onprogress?: (e: { lengthComputable: boolean; loaded: number; total: number }) => void } = {};
    onload?: () => void;
    onerror?: () => void;
    onabort?: () => void;
    ontimeout?: () => void;
    status = 0;
    responseText = '';
    private request: Sent = { method: '', url: '', headers: {}, body: undefined };
    open(method: string, url: string) {
      this.request = { method, url, headers: {}, body: undefined };
    }
    setRequestHeader(name: string, value: string) {
      this.request.headers[name] = value;
    }
    getResponseHeader() {
      return 'application/json';
    }
    abort() {
      this.onabort?.();
    }
    send(body: unknown) {
      this.request.body = body;
      sent.push(this.request);
      const result = answer(this.request);
      queueMicrotask(() => {
        if (result === 'network') return this.onerror?.();
        this.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 1 });
        this.status = result.status;
        this.responseText = result.body ?? '';
        this.onload?.();
      });
    }
  };
}

const file = (type = 'image/png') => new File([new Uint8Array([137, 80, 78, 71])], 'photo.png', { type });
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const OFFER = {
  direct: true,
  key: 'abc.png',
  url: 'https://bucket.example/protected/abc.png?X-Amz-Signature=1',
  method: 'PUT',
  headers: { 'content-type': 'image/png' },
};

describe('uploadFile', () => {
  let calls: { path: string; body: unknown }[];
  let sent: Sent[];
  beforeEach(() => {
    calls = [];
    sent = [];
    const session = JSON.stringify({ access_token: 'token-1', expires_at: Date.now() / 1000 + 3600, user: { id: 'u1' } });
    vi.stubGlobal('localStorage', {
      'sb-test-auth-token': session,
      getItem: (key: string) => (key === 'sb-test-auth-token' ? session : null),
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  const server = (presign: Response) =>
    vi.stubGlobal(
      'fetch',
      vi.fn(async (path: string, init: RequestInit) => {
        calls.push({ path, body: JSON.parse(String(init.body)) });
        return path === '/api/upload/presign' ? presign.clone() : json(201, { url: '/uploads/abc.png' });
      }),
    );

  it('sends the file straight to the bucket, without the member token, then completes it', async () => {
    server(json(201, OFFER));
    vi.stubGlobal(
      'XMLHttpRequest',
      fakeXhr(sent, () => ({ status: 200 })),
    );
    const progress: number[] = [];
    const result = await uploadFile(file(), 'protected', { onProgress: (p) => progress.push(p) });
    expect(result).toEqual({ ok: true, data: { url: '/uploads/abc.png' } });
    expect(calls).toEqual([
      { path: '/api/upload/presign', body: { area: 'protected', contentType: 'image/png', size: 4 } },
      { path: '/api/upload/complete', body: { key: 'abc.png' } },
    ]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'PUT', url: OFFER.url, headers: { 'content-type': 'image/png' } });
    expect(sent[0]!.body).toBeInstanceOf(File);
    expect(progress).toEqual([1]);
  });

  it('posts the file to the server when it offers no direct upload, or the bucket cannot be reached', async () => {
    server(json(200, { direct: false }));
    vi.stubGlobal(
      'XMLHttpRequest',
      fakeXhr(sent, () => ({ status: 201, body: '{"url":"/uploads/x.png"}' })),
    );
    expect(await uploadFile(file())).toEqual({ ok: true, data: { url: '/uploads/x.png' } });
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /api/upload']);
    expect(sent[0]!.headers.authorization).toBe('Bearer token-1');

    sent.length = 0;
    server(json(201, OFFER));
    vi.stubGlobal(
      'XMLHttpRequest',
      fakeXhr(sent, (r) => (r.method === 'PUT' ? 'network' : { status: 201, body: '{"url":"uploads/abc.pdf"}' })),
    );
    expect(await uploadFile(file(), 'protected')).toEqual({ ok: true, data: { url: 'uploads/abc.pdf' } });
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([`PUT ${OFFER.url}`, 'POST /api/upload?area=protected']);
  });

  it('lets the server tell a file without a type from its bytes, and says what the server refused', async () => {
    server(json(415, { error: { code: 'unsupported_media_type', message: 'Only images, videos and PDF files can be uploaded.' } }));
    vi.stubGlobal(
      'XMLHttpRequest',
      fakeXhr(sent, () => ({ status: 201, body: '{"url":"/uploads/y.pdf"}' })),
    );
    expect(await uploadFile(file(''))).toEqual({ ok: true, data: { url: '/uploads/y.pdf' } });
    expect(calls).toEqual([]);
    expect(await uploadFile(file('text/html'))).toMatchObject({
      ok: false,
      kind: 'error',
      status: 415,
      message: expect.stringMatching(/Only images/),
    });
  });
});
