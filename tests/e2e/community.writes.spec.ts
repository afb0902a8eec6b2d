/**
 * The community's pages in Chromium: a new free member starts a thread through the page, another
 * member replies, and the reply mail reaches the first (the server's reply round runs every second
 * here, tests/e2e/global-setup.ts); and the gates: a visitor reads the general category but is
 * offered sign-in instead of a form, and a free member gets the premium lounge's gate card with
 * none of its threads.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { and, eq, like } from 'drizzle-orm';
import { emails } from '../../functions/email/tables.ts';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import type { SessionAnswer } from '../support/answers.ts';
import { signedInMember, testClient } from './members.ts';
import { toastTitled, withSiteDb } from './support.ts';

async function demoSession(request: APIRequestContext, who: string): Promise<SessionAnswer> {
  const res = await request.post('/auth/v1/token?grant_type=password', {
    headers: testClient(),
    data: { email: `${who}@demo.beacongrowth.co`, password: DEMO_PASSWORD },
  });
  expect(res.status(), `sign-in of ${who}`).toBe(200);
  return (await res.json()) as SessionAnswer;
}

/** Signs the page in with a session, stored where the auth client keeps it. */
async function useSession(page: Page, session: SessionAnswer): Promise<void> {
  await page.addInitScript((stored: string) => localStorage.setItem('sb-127-auth-token', stored), JSON.stringify(session));
}

test('a free member starts a thread through the page and gets a mail when another member replies', async ({ page, request }) => {
  test.setTimeout(60_000);
  const member = await signedInMember(page, 'community');
  const title = `Which local directories still matter? ${Date.now()}`;

  await page.goto('/community/general');
  await page.getByRole('button', { name: 'Start a discussion' }).click();
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Your post').fill('We list on **three** directories today. Which ones are worth the effort?');
  await page.getByRole('button', { name: 'Post discussion' }).click();
  await page.waitForURL(/\/community\/threads\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(toastTitled(page, 'Discussion posted')).toBeVisible();
  await expect(page.getByTestId('community-post').first()).toContainText('We list on three directories today.');
  await expect(page.getByTestId('community-post').first().locator('strong')).toHaveText('three');
  // The starter follows the thread, so the mute switch is there.
  await expect(page.getByRole('button', { name: 'Mute this thread' })).toBeVisible();
  const threadId = new URL(page.url()).pathname.split('/').pop()!;

  // Another member replies through the API.
  const other = await demoSession(request, 'subscriber');
  const replied = await request.post(`/api/community/threads/${threadId}/replies`, {
    headers: { authorization: `Bearer ${other.access_token}` },
    data: { body: 'Google Business Profile first, then Yelp and the Chamber of Commerce.' },
  });
  expect(replied.status(), await replied.text()).toBe(201);

  // The reply mail, from the next round: the thread's title, the reply as text and a link back.
  await expect
    .poll(
      async () => {
        const [mail] = await withSiteDb((db) =>
          db
            .select()
            .from(emails)
            .where(and(eq(emails.to, member.email), like(emails.subject, `%${title}%`))),
        );
        return mail?.bodyText ?? '';
      },
      { timeout: 20_000, intervals: [500] },
    )
    .toContain('Google Business Profile first, then Yelp and the Chamber of Commerce.');
  const [mail] = await withSiteDb((db) =>
    db
      .select()
      .from(emails)
      .where(and(eq(emails.to, member.email), like(emails.subject, `%${title}%`))),
  );
  expect(mail!.subject).toBe(`Sam Subscriber replied in "${title}"`);
  expect(mail!.bodyText).toContain(`/community/threads/${threadId}`);

  // The member sees the reply on the page.
  await page.reload();
  await expect(page.getByTestId('community-post')).toHaveCount(2);
  await expect(page.getByTestId('community-post').last()).toContainText('Sam Subscriber');
});

test("a visitor reads the general category but cannot post, and a free member gets the premium lounge's gate", async ({
  page,
  browser,
  request,
}) => {
  await page.goto('/community/general');
  const rows = page.getByTestId('thread-row');
  await expect(rows.first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start a discussion' })).toHaveCount(0);
  await expect(page.getByText('to start a discussion.')).toBeVisible();
  await rows.first().getByRole('link').click();
  await expect(page.getByTestId('community-post').first()).toBeVisible();
  await expect(page.getByText('to reply.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Your reply' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Post reply' })).toHaveCount(0);

  const member = await browser.newPage();
  await useSession(member, await demoSession(request, 'free'));
  await member.goto('/community/premium-lounge');
  const gate = member.getByTestId('gate-card');
  await expect(gate).toContainText('Premium Content');
  await expect(gate.getByRole('link', { name: 'Upgrade Now' })).toHaveAttribute('href', '/pricing');
  await expect(member.getByTestId('thread-row')).toHaveCount(0);
  await expect(member.getByRole('button', { name: 'Start a discussion' })).toHaveCount(0);
  await member.close();
});
