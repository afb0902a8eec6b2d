import { describe, expect, it } from 'vitest';
import { signupSource } from './MemberCard.tsx';
import { cleanFilter } from './MemberFilters.tsx';

describe("the Users tab's helpers", () => {
  it('drops empty filter fields, keeping the rest', () => {
    expect(cleanFilter({ q: '', level: [], label: ['VIP'], newsletter: undefined, joinedFrom: '2026-01-01' })).toEqual({
      label: ['VIP'],
      joinedFrom: '2026-01-01',
    });
  });

  it('says where a member came from: the UTM parameters, then the referrer', () => {
    const none = { referrer: null, utmSource: null, utmMedium: null, utmCampaign: null };
    expect(signupSource(none)).toBe('Direct or unknown');
    expect(signupSource({ ...none, utmSource: 'news', utmCampaign: 'spring' })).toBe('news / spring');
    expect(signupSource({ ...none, referrer: 'https://blog.example/' })).toBe('from https://blog.example/');
    expect(signupSource({ referrer: 'https://blog.example/', utmSource: 'news', utmMedium: 'email', utmCampaign: null })).toBe(
      'news / email, from https://blog.example/',
    );
  });
});
