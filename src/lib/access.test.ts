import { describe, expect, it } from 'vitest';
import { ACCESS_LEVELS, accessLabel, accessRank, checkAccess, type AccessLevel } from './access.ts';

const member = (accessLevel: AccessLevel) => ({ accessLevel });

describe('accessRank', () => {
  it('ranks free 0 < subscriber 1 < premium 2', () => {
    expect(ACCESS_LEVELS.map(accessRank)).toEqual([0, 1, 2]);
  });

  it.each([undefined, null, '', 'gold', 'PREMIUM', 'admin'])('ranks the unknown level %j as free', (level) => {
    expect(accessRank(level)).toBe(0);
  });

  // Names every object inherits must not be mistaken for levels.
  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty'])('ranks the inherited property name %j as free', (level) => {
    expect(accessRank(level)).toBe(0);
  });
});

describe('checkAccess', () => {
  it.each(ACCESS_LEVELS)('asks a visitor who is not signed in to log in, even for %s items', (required) => {
    expect(checkAccess(null, required)).toEqual({ allowed: false, reason: 'login_required' });
  });

  it.each<[AccessLevel, AccessLevel]>([
    ['free', 'subscriber'],
    ['free', 'premium'],
    ['subscriber', 'premium'],
  ])('asks a %s member to upgrade for a %s item', (level, required) => {
    expect(checkAccess(member(level), required)).toEqual({ allowed: false, reason: 'upgrade_required' });
  });

  it.each<[AccessLevel, AccessLevel]>([
    ['free', 'free'],
    ['subscriber', 'subscriber'],
    ['premium', 'premium'],
    ['subscriber', 'free'],
    ['premium', 'free'],
    ['premium', 'subscriber'],
  ])('lets a %s member open a %s item', (level, required) => {
    expect(checkAccess(member(level), required)).toEqual({ allowed: true });
  });
});

describe('accessLabel', () => {
  it('labels each level', () => {
    expect(ACCESS_LEVELS.map(accessLabel)).toEqual(['Free', 'Subscriber', 'Premium']);
  });
});
