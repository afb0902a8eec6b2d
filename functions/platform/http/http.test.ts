import { describe, expect, it } from 'vitest';
import { etagMatches, pickEncoding } from './http.ts';

const ETAG = '"abc123"';

describe('etagMatches', () => {
  it.each<[string | undefined, boolean]>([
    ['"abc123"', true],
    ['W/"abc123"', true],
    ['"old", "abc123"', true],
    ['"old",W/"abc123" , "other"', true],
    ['*', true],
    [undefined, false],
    ['', false],
    ['"other"', false],
    ['abc123', false],
    ['"abc1234"', false],
    ['"old", "other"', false],
  ])('If-None-Match %j matches: %s', (header, expected) => {
    expect(etagMatches(header, ETAG)).toBe(expected);
  });
});

describe('pickEncoding', () => {
  it.each<[string | undefined, 'br' | 'gzip' | undefined]>([
    ['gzip, deflate, br', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['gzip;q=0.5, br;q=0.1', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br; q=0.0, gzip;q=0.8', 'gzip'],
    ['br;q=0.000, gzip;q=0', undefined],
    ['gzip;q=0', undefined],
    ['deflate, identity', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('Accept-Encoding %j picks %s', (header, expected) => {
    expect(pickEncoding(header)).toBe(expected);
  });

  // RFC 9110 section 12.4.2: the "q" parameter name is case-insensitive.
  it('treats an upper-case Q=0 as refusing the encoding', () => {
    expect(pickEncoding('br;Q=0, gzip')).toBe('gzip');
  });
});
