import { describe, expect, it } from 'vitest';
import { createRedirectCheck } from './redirect.ts';

describe('auth redirect_to check', () => {
  const site = 'https://www.beacongrowth.co';
  const allowed = createRedirectCheck(site, ['https://staging.beacongrowth.co/**', 'https://*.preview.example/app']);

  it.each([
    [`${site}/account?tab=profile`, `${site}/account?tab=profile`],
    [`${site}/signin#junk`, `${site}/signin`],
    ['https://staging.beacongrowth.co/deep/path?x=1', 'https://staging.beacongrowth.co/deep/path?x=1'],
    ['https://pr-7.preview.example/app', 'https://pr-7.preview.example/app'],
  ])('keeps %s', (raw, kept) => {
    expect(allowed(raw)).toBe(kept);
  });

  it.each([
    undefined,
    '',
    'not a url',
    'https://evil.example/',
    'http://www.beacongrowth.co/account', // another scheme
    'https://www.beacongrowth.co:8443/account', // another port
    'https://user:pass@www.beacongrowth.co/account',
    'javascript:alert(1)',
    `${site}//evil.example/`,
    `${site}/%5c%5cevil.example`,
    'https://a.b.preview.example/app', // * stays within one label
    'https://staging.beacongrowth.co.evil.example/',
  ])('falls back to the site for %s', (raw) => {
    expect(allowed(raw)).toBe(site);
  });

  it('accepts any port on a loopback site, as GoTrue does', () => {
    const local = createRedirectCheck('http://localhost:3000', []);
    expect(local('http://localhost:4321/signin')).toBe('http://localhost:4321/signin');
    expect(local('http://127.0.0.2:3000/signin')).toBe('http://localhost:3000');
  });
});
