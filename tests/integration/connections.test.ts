/**
 * Connection limits of the real server: a client that trickles its head or body is cut off with 408
 * (activity does not extend the deadline), idle connections are capped, and a malformed request gets
 * the JSON error shape. Uploads are the one exception, for staff only: a throttled client (a slow
 * link) keeps uploading well past the request time as long as it keeps the pace, and is cut off with
 * 408 below it (anyone else is refused before the body is read). Timeouts are set small here; the checks
 * allow ten times the limit, so they test behaviour, not speed.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../functions/config.ts';
import { startServer, type RunningServer } from '../../functions/main.ts';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import type { SessionAnswer } from '../support/answers.ts';
import { quietLogger } from '../support/fixtures.ts';
import { migratedDataDir } from '../support/databases.ts';
import { multipart, pngOfSize, type Part } from '../support/uploads.ts';

const HEADERS_MS = 300;
const REQUEST_MS = 600;
const MAX_CONNECTIONS = 4;
/** Bytes a second an upload must keep up (UPLOAD_MIN_BYTES_PER_SECOND). */
const MIN_PACE = 8 * 1024;

interface Exchange {
  socket: Socket;
  /** Everything received until the server closed the connection, and when that was. */
  closed: Promise<{ data: string; afterMs: number }>;
}

function open(port: number): Promise<Exchange> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (d) => (data += d.toString()));
    socket.on('error', () => undefined);
    const closed = new Promise<{ data: string; afterMs: number }>((done) =>
      socket.on('close', () => done({ data, afterMs: performance.now() - started })),
    );
    socket.once('connect', () => resolve({ socket, closed }));
  });
}

describe('connection limits', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const config = loadConfig({
      PORT: '0',
      DATA_DIR: await migratedDataDir('connections'),
      LOG_LEVEL: 'silent',
      EMAIL_WORKER: 'false',
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '200',
      HTTP_MAX_CONNECTIONS: String(MAX_CONNECTIONS),
      UPLOAD_MIN_BYTES_PER_SECOND: String(MIN_PACE),
      AUTH_SEED_DEMO: 'true',
      AUTH_BCRYPT_COST: '4',
    });
    server = await startServer(config, quietLogger(), { withoutSite: true });
  });
  afterAll(() => server?.close());

  it('cuts off a client that never finishes its head with 408', async () => {
    const { socket, closed } = await open(server.port);
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const { data, afterMs } = await closed;
    expect(data).toMatch(/^HTTP\/1\.1 408/);
    expect(data).toContain('"code":"request_timeout"');
    expect(afterMs).toBeLessThan(HEADERS_MS * 10);
  });

  it('cuts off a client that trickles its body, however active it stays', async () => {
    const { socket, closed } = await open(server.port);
    socket.write('POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{');
    const drip = setInterval(() => socket.writable && socket.write(' '), 50);
    const { data, afterMs } = await closed;
    clearInterval(drip);
    expect(data).toMatch(/^HTTP\/1\.1 408/);
    expect(afterMs).toBeLessThan(REQUEST_MS * 10);
  });

  it('refuses connections beyond the cap and accepts new ones once they close', async () => {
    const idle = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, () => open(server.port)));
    const extra = await open(server.port);
    const { data } = await extra.closed;
    expect(data).toBe('');
    for (const { socket } of idle) socket.destroy();
    await Promise.all(idle.map((e) => e.closed));
    await expect.poll(async () => (await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  describe('uploads over a slow link', () => {
    let editor = '';
    beforeAll(async () => {
      const res = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'editor@demo.beacongrowth.co', password: DEMO_PASSWORD }),
      });
      editor = ((await res.json()) as SessionAnswer).access_token;
    });

    /** Sends an upload's head, then its body `bytesPerSecond` at a time in 100 ms ticks (a throttled client). */
    async function throttledUpload(token: string, size: number, bytesPerSecond: number, path = '/api/upload', fields: Part[] = []) {
      const file = {
        field: path === '/api/upload' ? 'file' : 'attachment',
        filename: 'slow.png',
        type: 'image/png',
        body: pngOfSize(size),
      };
      const { body, contentType } = multipart([...fields, file]);
      const exchange = await open(server.port);
      exchange.socket.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n` +
          `Authorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
      );
      const step = Math.ceil(bytesPerSecond / 10);
      let sent = 0;
      const drip = setInterval(() => {
        if (!exchange.socket.writable || sent >= body.length) return clearInterval(drip);
        exchange.socket.write(body.subarray(sent, (sent += step)));
      }, 100);
      const closed = await exchange.closed;
      clearInterval(drip);
      return { ...closed, sent: Math.min(sent, body.length), total: body.length };
    }

    it('lets an editor upload at a slow but steady pace for well past the request time', async () => {
      // About 2.5 s at 5x the least pace, where other requests get 0.6 s.
      const { data, afterMs, sent, total } = await throttledUpload(editor, 100 * 1024, MIN_PACE * 5);
      expect(data, data.slice(0, 300)).toMatch(/^HTTP\/1\.1 201/);
      expect(sent).toBe(total);
      expect(afterMs).toBeGreaterThan(REQUEST_MS * 3);
    });

    it('lets a member send a support request with a file at the same steady pace', async () => {
      const res = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'free@demo.beacongrowth.co', password: DEMO_PASSWORD }),
      });
      const member = ((await res.json()) as SessionAnswer).access_token;
      const fields = [
        { field: 'subject', body: 'Sent over a slow link' },
        { field: 'message', body: 'See the screenshot.' },
      ];
      const { data, afterMs, sent, total } = await throttledUpload(member, 100 * 1024, MIN_PACE * 5, '/api/support/requests', fields);
      expect(data, data.slice(0, 300)).toMatch(/^HTTP\/1\.1 201/);
      expect(sent).toBe(total);
      expect(afterMs).toBeGreaterThan(REQUEST_MS * 3);
    });

    it('cuts off an editor whose upload falls below the pace with 408', async () => {
      const { data, afterMs, sent, total } = await throttledUpload(editor, 100 * 1024, MIN_PACE / 4);
      expect(data).toMatch(/^HTTP\/1\.1 408/);
      expect(sent).toBeLessThan(total);
      expect(afterMs).toBeLessThan(REQUEST_MS * 10);
    });
  });

  it('answers a request Node cannot parse in the JSON error shape', async () => {
    const { socket, closed } = await open(server.port);
    socket.write('GET /a b c HTTP/1.1\r\nHost: x\r\n\r\n');
    const { data } = await closed;
    expect(data).toMatch(/^HTTP\/1\.1 400/);
    expect(data).toContain('"code":"bad_request"');
  });
});
