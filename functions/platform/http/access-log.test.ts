import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createAccessLog } from './access-log.ts';

function sink() {
  const writes: string[] = [];
  const out = new Writable({
    write(chunk, _encoding, done) {
      writes.push(String(chunk));
      done();
    },
  });
  return {
    out,
    writes,
    lines: () =>
      writes
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe('access log', () => {
  it('writes one JSON line per request in the shape of the pino logs', () => {
    const s = sink();
    const log = createAccessLog(s.out);
    log.record('GET', '/api/public/blogs', 200, 0.4, 'req-1');
    log.record('POST', '/api/contact', 503, 12.5, 'req-1');
    log.flush();
    expect(s.lines()).toEqual([
      {
        level: 'info',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        requestId: 'req-1',
        method: 'GET',
        path: '/api/public/blogs',
        status: 200,
        ms: 0.4,
        msg: 'request',
      },
      {
        level: 'error',
        time: expect.any(String),
        requestId: 'req-1',
        method: 'POST',
        path: '/api/contact',
        status: 503,
        ms: 12.5,
        msg: 'request',
      },
    ]);
  });

  it('keeps a hostile path a string inside valid JSON', () => {
    const s = sink();
    const log = createAccessLog(s.out);
    log.record('GET', '/a"b\\c\n{"level":"fatal"}', 404, 1, 'req-1');
    log.flush();
    expect(s.lines()).toHaveLength(1);
    expect(s.lines()[0]!.path).toBe('/a"b\\c\n{"level":"fatal"}');
  });

  it('buffers lines into few writes and flushes on its own after a short delay', async () => {
    const s = sink();
    const log = createAccessLog(s.out);
    for (let i = 0; i < 50; i++) log.record('GET', '/', 200, 1, 'req-1');
    expect(s.writes).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(s.writes).toHaveLength(1);
    expect(s.lines()).toHaveLength(50);
  });

  it('writes a full buffer at once', () => {
    const s = sink();
    const log = createAccessLog(s.out);
    for (let i = 0; i < 400; i++) log.record('GET', `/blog/article-${i}`, 200, 1, 'req-1');
    expect(s.writes.length).toBeGreaterThan(0);
  });

  it('writes nothing when disabled (LOG_LEVEL above info)', () => {
    const s = sink();
    const log = createAccessLog(s.out, false);
    log.record('GET', '/', 200, 1, 'req-1');
    log.flush();
    expect(s.writes).toEqual([]);
  });
});
