import { describe, expect, it } from 'vitest';
import { describeGrant, grantLanguage, type GrantView } from './grants.ts';

const NOW = new Date('2026-11-29T12:00:00Z');
const grant = (g: Partial<GrantView>): GrantView => ({
  id: 'g',
  accessLevel: 'premium',
  source: 'comp',
  startsAt: '2026-11-01T00:00:00Z',
  endsAt: null,
  active: true,
  ...g,
});

describe('describeGrant', () => {
  it('writes each source in words, in the member’s language', () => {
    expect(describeGrant(grant({ source: 'gift', endsAt: '2027-03-12T00:00:00Z', from: 'Ana' }), 'en', NOW)).toBe(
      'Premium until 12 March 2027, a gift from Ana',
    );
    expect(
      describeGrant(
        grant({ source: 'subscription', accessLevel: 'subscriber', interval: 'month', renewsAt: '2027-01-03T00:00:00Z' }),
        'en',
        NOW,
      ),
    ).toBe('Subscriber, monthly, renews 3 January 2027');
    expect(describeGrant(grant({ source: 'subscription', interval: 'year', renewsAt: '2026-12-03T00:00:00Z' }), 'en', NOW)).toBe(
      'Premium, yearly, renews 3 December',
    );
    expect(
      describeGrant(grant({ source: 'subscription', interval: 'month', renewsAt: '2026-12-03T00:00:00Z', cancelling: true }), 'fr', NOW),
    ).toBe('Premium, mensuel, se termine le 3 décembre');
    expect(describeGrant(grant({ source: 'offer', interval: 'month', renewsAt: '2026-12-03T00:00:00Z' }), 'es', NOW)).toBe(
      'Premium, mensual, con precio de oferta, se renueva el 3 de diciembre',
    );
    expect(describeGrant(grant({}), 'en', NOW)).toBe('Premium, complimentary, no end date');
    expect(describeGrant(grant({ source: 'trial', accessLevel: 'subscriber', renewsAt: '2026-12-13T00:00:00Z' }), 'en', NOW)).toBe(
      'Subscriber until 13 December, free trial',
    );
    expect(
      describeGrant(grant({ startsAt: '2027-01-01T00:00:00Z', endsAt: '2027-04-01T00:00:00Z', source: 'gift', active: false }), 'en', NOW),
    ).toBe('Premium from 1 January 2027 until 1 April 2027, a gift');
    expect(describeGrant(grant({ endsAt: '2026-11-20T00:00:00Z', active: false }), 'en', NOW)).toBe(
      'Premium until 20 November, complimentary (ended)',
    );
  });

  it('reads an unknown language as English', () => {
    expect(grantLanguage('de')).toBe('en');
    expect(grantLanguage(undefined)).toBe('en');
    expect(grantLanguage('fr')).toBe('fr');
  });
});
