import { describe, expect, it } from 'vitest';
import { createPageAnswer, createPageCache } from './page-answers.ts';
import { replaceOrigin } from './static-pages.ts';

const page = (text: string, type = 'text/html; charset=utf-8') =>
  createPageAnswer({ status: 200, headers: { 'Content-Type': type }, bytes: Buffer.from(text) });

describe('page answers', () => {
  it('gives the same bytes the same ETag and other bytes another', () => {
    expect(page('<p>a</p>').etag).toBe(page('<p>a</p>').etag);
    expect(page('<p>a</p>').etag).not.toBe(page('<p>b</p>').etag);
  });

  it('compresses text of 1 KB or more, and neither small pages nor binary types', () => {
    const big = 'x'.repeat(4096);
    expect(page(big).encoded('br')!.length).toBeLessThan(100);
    expect(page(big).encoded('gzip')!.length).toBeLessThan(100);
    expect(page('small').encoded('br')).toBeUndefined();
    expect(page(big, 'image/png').encoded('gzip')).toBeUndefined();
  });

  it('uses the compressed forms the build wrote', () => {
    const br = Buffer.from('prebuilt br');
    const answer = createPageAnswer({
      status: 200,
      headers: { 'Content-Type': 'text/html' },
      bytes: Buffer.alloc(2048, 'a'),
      precompressed: { br },
    });
    expect(answer.encoded('br')).toBe(br);
  });
});

describe('the page cache', () => {
  it('holds at most its bound, dropping the least recently used first', () => {
    const cache = createPageCache(10_000);
    for (let i = 0; i < 5; i++) cache.set(`/p${i}`, page('y'.repeat(2000)));
    // Each 2,000-byte text page counts twice (room for its compressed forms): two fit.
    expect(cache.count).toBe(2);
    expect(cache.get('/p4')).toBeDefined();
    cache.get('/p3');
    cache.set('/p5', page('z'.repeat(2000)));
    expect(cache.get('/p4')).toBeUndefined();
    expect(cache.get('/p3')).toBeDefined();
  });

  it('keeps nothing bigger than its bound, and forgets everything on clear', () => {
    const cache = createPageCache(1000);
    cache.set('/big', page('x'.repeat(5000)));
    expect(cache.count).toBe(0);
    cache.set('/a', page('a'));
    cache.clear();
    expect(cache.get('/a')).toBeUndefined();
  });
});

describe('replaceOrigin', () => {
  const from = 'http://localhost:3000';
  const to = 'https://www.example.com';

  it('replaces the origin wherever it stands as one', () => {
    expect(replaceOrigin(`<link href="${from}/blog"><a href="${from}">x</a> ${from}\n`, from, to)).toBe(
      `<link href="${to}/blog"><a href="${to}">x</a> ${to}\n`,
    );
    expect(replaceOrigin(`{"url":"${from}/x?y"}`, from, to)).toBe(`{"url":"${to}/x?y"}`);
  });

  it('replaces it percent-encoded inside another URL and with JSON-escaped slashes', () => {
    const share = (origin: string) => `https://x.com/intent/tweet?url=${encodeURIComponent(`${origin}/services/seo`)}&text=SEO`;
    expect(replaceOrigin(share(from), from, to)).toBe(share(to));
    expect(replaceOrigin('{"u":"http:\\/\\/localhost:3000\\/x"}', from, to)).toBe('{"u":"https:\\/\\/www.example.com\\/x"}');
    const longer = `?url=${encodeURIComponent(`${from}0/x`)}`;
    expect(replaceOrigin(longer, from, to)).toBe(longer);
  });

  it('leaves longer hosts and ports that start with it alone', () => {
    for (const other of [`${from}0/x`, `${from}.evil.example/x`, `${from}:1/x`, `${from}-x`])
      expect(replaceOrigin(other, from, to)).toBe(other);
  });
});
