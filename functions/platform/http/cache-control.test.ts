import { describe, expect, it } from 'vitest';
import { isPerCaller, sharedCacheControl } from './cache-control.ts';

describe('sharedCacheControl', () => {
  it('splits the bound into fresh and stale-while-revalidate halves, browsers always revalidating', () => {
    expect(sharedCacheControl(60)).toBe('public, max-age=0, s-maxage=30, stale-while-revalidate=30');
    expect(sharedCacheControl(5)).toBe('public, max-age=0, s-maxage=3, stale-while-revalidate=2');
    expect(sharedCacheControl(1)).toBe('public, max-age=0, s-maxage=1');
  });

  it('asks every cache to revalidate when the bound is 0', () => {
    expect(sharedCacheControl(0)).toBe('public, max-age=0, must-revalidate');
  });

  it('refuses a bound over 60 s or not in whole seconds', () => {
    expect(() => sharedCacheControl(61)).toThrow(RangeError);
    expect(() => sharedCacheControl(1.5)).toThrow(RangeError);
    expect(() => sharedCacheControl(-1)).toThrow(RangeError);
  });
});

describe('isPerCaller', () => {
  it('tells private answers from shared and plain no-store ones', () => {
    expect(isPerCaller('private, no-store')).toBe(true);
    expect(isPerCaller('no-store')).toBe(false);
    expect(isPerCaller(sharedCacheControl(60))).toBe(false);
    expect(isPerCaller(undefined)).toBe(false);
  });
});
