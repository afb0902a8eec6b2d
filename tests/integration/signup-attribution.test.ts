/**
 * Sign-up attribution (issue 35): the first page's referrer and UTM parameters the browser sends in
 * the sign-up's metadata (`data.signup`) are kept on the new member's profile, each bad value
 * dropped (never refusing the sign-up), and the Users tab's filter finds the member by them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { apiCaller, ROLE_ACCOUNTS, roleAccounts } from '../support/callers.ts';

describe('sign-up attribution', () => {
  let t: TestApp;
  let admin: string;
  let get: ReturnType<typeof apiCaller>;

  beforeAll(async () => {
    t = await createTestApp('pglite', undefined, { AUTH_BCRYPT_COST: '4' });
    get = apiCaller(t);
    admin = (await roleAccounts(t, 'attribution', { admin: ROLE_ACCOUNTS.admin })).tokens.admin;
  });
  afterAll(() => t?.close());

  const signUp = (email: string, data: unknown) =>
    t.app.request('/auth/v1/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'attribution pass', data }),
    });
  const usersWhere = async (query: string) => {
    const res = await get(admin, `/api/admin/users?${query}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { users: { email: string; signup: Record<string, string | null> }[] }).users;
  };

  it('keeps the referrer and UTM parameters and finds the member by them', async () => {
    const email = 'from-news@attribution.test';
    const signup = { referrer: 'https://news.example/issue-7', utm_source: 'spring-news', utm_medium: 'email', utm_campaign: 'launch' };
    expect((await signUp(email, { signup })).status).toBe(200);

    const found = await usersWhere('signup=spring-news');
    expect(found.map((u) => u.email)).toEqual([email]);
    expect(found[0]!.signup).toEqual({
      referrer: 'https://news.example/issue-7',
      utmSource: 'spring-news',
      utmMedium: 'email',
      utmCampaign: 'launch',
    });
    expect((await usersWhere('signup=news.example')).map((u) => u.email)).toEqual([email]);
    expect(await usersWhere('signup=no-such-campaign')).toEqual([]);
  });

  it('drops each bad value and still makes the account', async () => {
    const email = 'odd-link@attribution.test';
    const signup = { referrer: 'javascript:alert(1)', utm_source: 'odd\nsource', utm_medium: 'x'.repeat(201), utm_campaign: ' kept ' };
    expect((await signUp(email, { signup })).status).toBe(200);
    const [member] = await usersWhere(`q=${encodeURIComponent(email)}`);
    expect(member!.signup).toEqual({ referrer: null, utmSource: null, utmMedium: null, utmCampaign: 'kept' });

    expect((await signUp('not-an-object@attribution.test', { signup: 'https://news.example' })).status).toBe(200);
    const [plain] = await usersWhere('q=not-an-object');
    expect(plain!.signup).toEqual({ referrer: null, utmSource: null, utmMedium: null, utmCampaign: null });
  });
});
