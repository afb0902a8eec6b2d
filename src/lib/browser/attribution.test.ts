import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SIGNUP_STORAGE_KEY } from '#shared/signup-attribution.ts';
import { ATTRIBUTION_SCRIPT, signupData } from './attribution.ts';

/** A sessionStorage for the tests: a map behind the Storage methods the script uses. */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, String(v)),
    removeItem: (k: string) => void items.delete(k),
  };
}

/** Runs the inline script as a page at `href`, opened from `referrer`. */
function visit(href: string, referrer = '') {
  const url = new URL(href);
  vi.stubGlobal('location', { href, host: url.host, search: url.search });
  vi.stubGlobal('document', { referrer });
  new Function(ATTRIBUTION_SCRIPT)();
}

afterEach(() => vi.unstubAllGlobals());

describe('the attribution script', () => {
  it('is small: under 500 bytes, and far under half a kilobyte gzipped', () => {
    expect(ATTRIBUTION_SCRIPT.length).toBeLessThan(500);
    expect(gzipSync(ATTRIBUTION_SCRIPT).length).toBeLessThan(400);
  });

  it("keeps the first page's UTM parameters and another site's referrer, and never overwrites them in the visit", () => {
    vi.stubGlobal('sessionStorage', memoryStorage());
    visit('https://site.example/?utm_source=news&utm_medium=email&utm_campaign=spring&other=1', 'https://blog.example/post');
    visit('https://site.example/pricing?utm_source=later', 'https://elsewhere.example/');
    expect(signupData()).toEqual({
      referrer: 'https://blog.example/post',
      utm_source: 'news',
      utm_medium: 'email',
      utm_campaign: 'spring',
    });
  });

  it('keeps no referrer from the site itself, and a first page without a source still decides', () => {
    const storage = memoryStorage();
    vi.stubGlobal('sessionStorage', storage);
    visit('https://site.example/about', 'https://site.example/');
    expect(storage.getItem(SIGNUP_STORAGE_KEY)).toBe('{}');
    visit('https://site.example/?utm_source=later');
    expect(signupData()).toBeUndefined();
  });

  it('cuts long values to the limits and survives a storage that refuses', () => {
    vi.stubGlobal('sessionStorage', memoryStorage());
    visit(`https://site.example/?utm_campaign=${'c'.repeat(300)}`, `https://blog.example/${'p'.repeat(600)}`);
    const data = signupData();
    expect(data?.utm_campaign).toHaveLength(200);
    expect(data?.referrer).toHaveLength(500);
    vi.stubGlobal('sessionStorage', {
      getItem: () => {
        throw new Error('denied');
      },
    });
    expect(() => visit('https://site.example/?utm_source=x')).not.toThrow();
    expect(signupData()).toBeUndefined();
  });
});
