import { describe, expect, it } from 'vitest';
import { targetOf } from './answer-lane.ts';

describe('targetOf', () => {
  it.each([
    ['https://site.example/api/public/blogs', '/api/public/blogs'],
    ['https://site.example/api/public/blogs?page=2&q=a%20b', '/api/public/blogs?page=2&q=a%20b'],
    ['http://127.0.0.1:3000/', '/'],
    ['https://site.example', '/'],
    ['https://user:pw@site.example:8443/a/b#part', '/a/b'],
    ['https://site.example/a?x=1#part', '/a?x=1'],
  ])('keys %s as %s (what new URL gives as path and query)', (url, target) => {
    expect(targetOf(url)).toBe(target);
    const parsed = new URL(url);
    expect(targetOf(url)).toBe(parsed.pathname + parsed.search);
  });
});
