/**
 * Members for the browser tests: a fresh account signed in through its mailed confirmation link,
 * the demo admin's token, and an admin changing a member's access level through the user API.
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { desc, eq } from 'drizzle-orm';
import type { AccessLevel } from '#shared/access.ts';
import { openDatabase } from '../../functions/platform/db/client.ts';
import { emails } from '../../functions/email/tables.ts';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import { quietLogger } from '../support/fixtures.ts';
import type { SessionAnswer, SignedUpAnswer } from '../support/answers.ts';

export const PASSWORD = 'gated journey pass';
export const DEMO_ADMIN = 'admin@demo.beacongrowth.co';

/**
 * A client address of its own for each helper call: every browser test signs up from 127.0.0.1, and
 * the auth service's per-address limits (30 sign-ups in 5 minutes) would otherwise be used up by
 * set-up alone. The e2e server trusts one proxy hop for this.
 */
export const testClient = () => ({ 'x-forwarded-for': `198.18.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}` });

export const uniqueEmail = (name: string) => `${name}.${Date.now()}${Math.floor(Math.random() * 1e6)}@example.com`;

/** The confirmation link of the newest mail to `to`, read from the site database's outbox. */
export async function confirmationLink(to: string): Promise<string> {
  const database = await openDatabase({ kind: 'postgres', url: process.env.TEST_SITE_DB_URL!, poolSize: 1 }, quietLogger());
  try {
    for (let i = 0; i < 50; i++) {
      const [mail] = await database.db.select().from(emails).where(eq(emails.to, to)).orderBy(desc(emails.createdAt)).limit(1);
      const link = mail && /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail.bodyText)?.[0];
      if (link) return link;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no mail to ${to}`);
  } finally {
    await database.close();
  }
}

/** A new free member, signed in in this page's browser; answers their id and email. */
export async function signedInMember(page: Page, name: string): Promise<{ id: string; email: string }> {
  const email = uniqueEmail(name);
  // This page is one client of its own: its link and sign-in count against its own per-address limits.
  await page.setExtraHTTPHeaders(testClient());
  // The link lands on /signin, whose auth client reads the session from it and moves on to /.
  const landing = `${process.env.E2E_BASE_URL}/signin`;
  const res = await page.request.post(`/auth/v1/signup?redirect_to=${encodeURIComponent(landing)}`, {
    headers: testClient(),
    data: { email, password: PASSWORD },
  });
  expect(res.ok(), `sign-up: ${res.status()}`).toBe(true);
  const { id } = (await res.json()) as SignedUpAnswer;
  await page.goto(await confirmationLink(email));
  await page.waitForURL((url) => url.pathname === '/' && !url.hash, { timeout: 15_000 });
  await expect.poll(() => page.evaluate(() => Object.keys(localStorage).some((k) => /^sb-.+-auth-token$/.test(k)))).toBe(true);
  return { id, email };
}

/** An access token of the demo admin (seeded by the e2e server). */
export async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post('/auth/v1/token?grant_type=password', {
    headers: testClient(),
    data: { email: DEMO_ADMIN, password: DEMO_PASSWORD },
  });
  expect(res.ok(), `admin sign-in: ${res.status()}`).toBe(true);
  return ((await res.json()) as SessionAnswer).access_token;
}

/** Sets a member's access level as the demo admin does it (PUT /api/users/{id}/accessLevel). */
export async function setAccessLevel(request: APIRequestContext, userId: string, accessLevel: AccessLevel): Promise<void> {
  const res = await request.put(`/api/users/${userId}/accessLevel`, {
    headers: { authorization: `Bearer ${await adminToken(request)}` },
    data: { accessLevel },
  });
  expect(res.ok(), `set access level: ${res.status()} ${await res.text()}`).toBe(true);
}
