import { describe, expect, it } from 'vitest';
import { signupAttribution } from './signup-attribution.ts';

describe('signupAttribution', () => {
  it('keeps a referrer URL and the UTM parameters, trimmed', () => {
    expect(
      signupAttribution({ referrer: ' https://news.example/post ', utm_source: ' news ', utm_medium: 'email', utm_campaign: 'spring' }),
    ).toEqual({
      signupReferrer: 'https://news.example/post',
      signupUtmSource: 'news',
      signupUtmMedium: 'email',
      signupUtmCampaign: 'spring',
    });
  });

  it('drops each invalid value and keeps the others', () => {
    expect(
      signupAttribution({
        referrer: 'javascript:alert(1)',
        utm_source: 'a'.repeat(201),
        utm_medium: 'two\nlines',
        utm_campaign: 42,
      }),
    ).toEqual({ signupReferrer: null, signupUtmSource: null, signupUtmMedium: null, signupUtmCampaign: null });
    expect(signupAttribution({ referrer: `https://x.example/${'a'.repeat(500)}`, utm_source: 'a'.repeat(200) })).toMatchObject({
      signupReferrer: null,
      signupUtmSource: 'a'.repeat(200),
    });
    expect(signupAttribution({ referrer: 'not a url', utm_campaign: '  ' })).toMatchObject({
      signupReferrer: null,
      signupUtmCampaign: null,
    });
  });

  it('is empty for metadata that is no object', () => {
    const none = { signupReferrer: null, signupUtmSource: null, signupUtmMedium: null, signupUtmCampaign: null };
    for (const raw of [undefined, null, 'https://x.example', ['https://x.example']]) expect(signupAttribution(raw)).toEqual(none);
  });
});
