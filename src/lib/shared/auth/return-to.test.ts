import { describe, expect, it } from 'vitest';
import { isResetTarget, mailLanding, resetLanding, returnTarget, withReturn } from './return-to.ts';

const ORIGIN = 'https://www.beacongrowth.co';
const PLAN = '/pricing?plan=price_premium_monthly';

describe('the return target', () => {
  it('reads a local redirect and refuses one that leaves the site', () => {
    expect(returnTarget(`?redirect=${encodeURIComponent(PLAN)}`)).toBe(PLAN);
    expect(returnTarget('?redirect=%2F%2Fevil.example')).toBeUndefined();
    expect(returnTarget('?redirect=https%3A%2F%2Fevil.example')).toBeUndefined();
    expect(returnTarget('')).toBeUndefined();
  });

  it('survives every hop: sign-in to sign-up, the mailed link, and back', () => {
    const signUp = withReturn('/signup', PLAN);
    expect(signUp).toBe('/signup?redirect=%2Fpricing%3Fplan%3Dprice_premium_monthly');
    const landing = new URL(mailLanding(ORIGIN, returnTarget(new URL(signUp, ORIGIN).search)));
    expect(landing.pathname).toBe('/signin');
    expect(returnTarget(landing.search)).toBe(PLAN);
  });

  it('drops an unsafe target instead of carrying it', () => {
    expect(withReturn('/signin', '//evil.example')).toBe('/signin');
    expect(mailLanding(ORIGIN, undefined)).toBe(`${ORIGIN}/signin`);
  });

  it('sends a reset link through /signin to the new-password page, then to the target', () => {
    const landing = new URL(resetLanding(ORIGIN, PLAN));
    expect(landing.pathname).toBe('/signin');
    const next = returnTarget(landing.search)!;
    expect(isResetTarget(next)).toBe(true);
    expect(returnTarget(new URL(next, ORIGIN).search)).toBe(PLAN);
    expect(returnTarget(new URL(resetLanding(ORIGIN, undefined)).search)).toBe('/reset-password');
  });

  it('knows the new-password page and nothing else as a reset target', () => {
    expect(isResetTarget('/reset-password')).toBe(true);
    expect(isResetTarget('/reset-password?redirect=%2Fblog')).toBe(true);
    expect(isResetTarget('/reset-passwords')).toBe(false);
    expect(isResetTarget('/blog?next=/reset-password')).toBe(false);
    expect(isResetTarget(undefined)).toBe(false);
  });
});
