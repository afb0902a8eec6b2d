import { describe, expect, it } from 'vitest';
import {
  ACCESS_LEVELS,
  ROLES,
  accessLabel,
  accessRank,
  checkAccess,
  effectiveLevel,
  gateCopy,
  gateFor,
  type AccessLevel,
} from './access.ts';

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

describe('the access rule, as a full table', () => {
  // Every level x every required level x signed in or out, for each role: the spec's point 4 and
  // the staff rule (editors and admins read at premium whatever their profile holds).
  const rank = { free: 0, subscriber: 1, premium: 2 } as const;
  const cases = ROLES.flatMap((role) =>
    ACCESS_LEVELS.flatMap((level) =>
      ACCESS_LEVELS.flatMap((required) => [true, false].map((signedIn) => ({ role, level, required, signedIn }))),
    ),
  );

  it('has every combination', () => expect(cases).toHaveLength(3 * 3 * 3 * 2));

  it.each(cases)('$role at $level, signed in: $signedIn, item $required', ({ role, level, required, signedIn }) => {
    const decision = checkAccess(signedIn ? { accessLevel: level, role } : null, required);
    const reads = role === 'member' ? rank[level] : rank.premium;
    if (!signedIn) expect(decision).toEqual({ allowed: false, reason: 'login_required' });
    else if (reads >= rank[required]) expect(decision).toEqual({ allowed: true });
    else expect(decision).toEqual({ allowed: false, reason: 'upgrade_required' });
  });

  it('reads staff at premium and members at their own level', () => {
    expect(effectiveLevel({ accessLevel: 'free', role: 'editor' })).toBe('premium');
    expect(effectiveLevel({ accessLevel: 'free', role: 'admin' })).toBe('premium');
    expect(effectiveLevel({ accessLevel: 'subscriber', role: 'member' })).toBe('subscriber');
    expect(effectiveLevel({ accessLevel: 'subscriber' })).toBe('subscriber');
  });
});

describe('gateCopy', () => {
  it('titles and texts each level as the spec says', () => {
    expect(gateCopy('premium', 'article')).toEqual({
      title: 'Premium Content',
      text: 'This article is available exclusively to premium members.',
    });
    expect(gateCopy('subscriber', 'lesson')).toEqual({ title: 'Subscriber Content', text: 'This lesson is available to subscribers.' });
    expect(gateCopy('free', 'download')).toEqual({ title: 'Restricted Content', text: 'This download requires a higher access level.' });
  });
});

describe('gateFor', () => {
  it('tells a visitor on a free item that a free account is enough', () => {
    expect(gateFor('free', 'article', false)).toEqual({
      kind: 'account',
      title: 'Free with an account',
      text: 'This article is free for members. Sign up or sign in to read it.',
    });
    expect(gateFor('free', 'lesson', false).text).toBe('This lesson is free for members. Sign up or sign in to open it.');
    expect(gateFor('free', 'download', false).text).toBe('This download is free for members. Sign up or sign in to download it.');
  });

  it("keeps the spec's copy for paid levels, signed in or not, and for members", () => {
    for (const signedIn of [false, true]) {
      expect(gateFor('premium', 'article', signedIn)).toEqual({ kind: 'upgrade', ...gateCopy('premium', 'article') });
      expect(gateFor('subscriber', 'lesson', signedIn)).toEqual({ kind: 'upgrade', ...gateCopy('subscriber', 'lesson') });
    }
    expect(gateFor('free', 'download', true)).toEqual({ kind: 'upgrade', ...gateCopy('free', 'download') });
  });
});

describe('accessLabel', () => {
  it('labels each level', () => {
    expect(ACCESS_LEVELS.map(accessLabel)).toEqual(['Free', 'Subscriber', 'Premium']);
  });
});
