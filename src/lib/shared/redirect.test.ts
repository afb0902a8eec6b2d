import { describe, expect, it } from 'vitest';
import { isSafePath, localPath, localPathOr, withoutTrailingSlash } from './redirect.ts';

const ORIGIN = 'https://www.beacongrowth.co';

/** Where a browser would go for this Location (Node's URL is the WHATWG parser browsers use). */
const resolved = (location: string) => new URL(location, `${ORIGIN}/some/page`);

/**
 * Paths a browser could read as protocol-relative ("//evil.example") or otherwise off-site: browsers
 * treat "\" as "/", strip tabs and line breaks, and a decoding step anywhere may turn %5c or %09 into
 * one of those.
 */
const PROTOCOL_RELATIVE = [
  '//evil.example',
  '///evil.example',
  '////evil.example/path',
  '/\\evil.example',
  '\\\\evil.example',
  '/\\/evil.example',
  '\\/evil.example',
  '/%5cevil.example',
  '/%5Cevil.example',
  '/%5c%5cevil.example',
  '/%09/evil.example',
  '/\t/evil.example',
  '/%0a/evil.example',
  '/%0d%0a/evil.example',
  '/\r\n/evil.example',
  '/%20/evil.example',
  '/ /evil.example',
  '/%00/evil.example',
  '/%7f/evil.example',
  '/\u007f/evil.example',
  '/%2f/evil.example',
  '/%2F%2Fevil.example',
  '/.//evil.example',
  '/..//evil.example',
  '/%2e%2e//evil.example',
  'https://evil.example',
  'http:evil.example',
  'https:/evil.example',
  '//evil.example@www.beacongrowth.co',
  'javascript:alert(1)',
  ' /evil',
  '/\u3002evil.example',
];

describe('localPath', () => {
  it.each([
    '/',
    '/blog',
    '/blog?tag=SEO',
    '/account?tab=profile#billing',
    '/blog/a-b-c',
    '/search?q=a%20b',
    '/pricing?plan=premium&x=%2F%2F',
  ])('keeps the local path %j as it is', (target) => {
    expect(localPath(target)).toBe(target);
    expect(resolved(target).origin).toBe(ORIGIN);
  });

  it.each(PROTOCOL_RELATIVE)('never yields a Location that leaves the site for %j', (target) => {
    const location = localPath(target);
    if (location !== undefined) expect(resolved(location).origin).toBe(ORIGIN);
  });

  it.each([
    '//evil.example',
    '/\\evil.example',
    '/%5cevil.example',
    '/%09/evil.example',
    '/%0d%0a/evil.example',
    'https://evil.example',
    'javascript:alert(1)',
  ])('refuses %j outright rather than repairing it', (target) => {
    expect(localPath(target)).toBeUndefined();
  });

  it.each([undefined, null, 42, {}, '', 'blog', `/${'a'.repeat(2048)}`])('refuses %j', (target) => {
    expect(localPath(target)).toBeUndefined();
  });

  it('falls back when the target is not local', () => {
    expect(localPathOr('//evil.example', '/')).toBe('/');
    expect(localPathOr('/account', '/')).toBe('/account');
  });
});

describe('withoutTrailingSlash', () => {
  it.each([
    ['/blog/', '/blog'],
    ['/blog/?tag=SEO', '/blog?tag=SEO'],
    ['/blog///', '/blog'],
    ['//blog//', '/blog'],
    ['/courses/seo-basics/', '/courses/seo-basics'],
  ])('redirects %j to %j', (raw, expected) => {
    expect(withoutTrailingSlash(raw)).toBe(expected);
  });

  it.each(PROTOCOL_RELATIVE.map((p) => `${p}/`))('keeps %j on the site or refuses it', (raw) => {
    const location = withoutTrailingSlash(raw);
    if (location !== undefined) expect(resolved(location).origin).toBe(ORIGIN);
  });

  it.each(['/%5chost/', '/\\host/', '/%09/host/', '/blog%7f/', '/blog%0d%0a/', '/x%00/'])('refuses %j', (raw) => {
    expect(withoutTrailingSlash(raw)).toBeUndefined();
  });
});

describe('isSafePath', () => {
  it.each(['/', '/blog', '/blog/a-b', '/_astro/index.abc123.js', '/media/cover%20image.jpg'])('accepts %j', (p) => {
    expect(isSafePath(p)).toBe(true);
  });
  it.each(['/blog\\x', '/blog%5cx', '/blog%00', '/blog%0A', '/a\tb', '/a b', '/caf\u00e9', '/x%7F'])('refuses %j', (p) => {
    expect(isSafePath(p)).toBe(false);
  });
});
