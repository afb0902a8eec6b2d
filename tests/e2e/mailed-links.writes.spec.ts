/**
 * Every mailed one-click link as a person follows it: the mail's `.eml` from the server's mailbox is
 * opened in Chromium, its link clicked, and the page's button pressed, so the browser posts the form
 * with the headers it really sends (no fetch with a hand-set Origin). The newsletter joined from the
 * footer (confirm, then unsubscribe from the welcome mail), and a community reply mail's "Mute this
 * thread" and "Turn off all reply emails".
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import type { SessionAnswer } from '../support/answers.ts';
import { mailedMessage, openMail } from './mailbox.ts';
import { signedInMember, testClient, uniqueEmail } from './members.ts';
import { toastTitled } from './support.ts';

/** Follows the mail's link named `link`, presses the page's `button` and expects the done page's heading. */
async function followAndPress(page: Page, link: string, button: string, done: string): Promise<void> {
  const posts: { origin: string | undefined; fetchSite: string | undefined }[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST') posts.push({ origin: req.headers()['origin'], fetchSite: req.headers()['sec-fetch-site'] });
  });
  await page.getByRole('link', { name: link }).click();
  await expect(page.getByRole('button', { name: button })).toBeVisible();
  await page.getByRole('button', { name: button }).click();
  await expect(page.getByRole('heading', { level: 1, name: done })).toBeVisible();
  // A real browser's post, whatever it carried (no Origin at all, or its own origin).
  expect(posts).toHaveLength(1);
}

test('a visitor joins the newsletter from the footer, confirms from the mail and unsubscribes from the next', async ({ page }) => {
  const email = uniqueEmail('footer-newsletter');
  await page.setExtraHTTPHeaders(testClient());
  await page.goto('/about');
  const footer = page.getByRole('form', { name: 'Newsletter' });
  await footer.getByLabel('Email address').fill(email);
  await footer.getByRole('button', { name: 'Subscribe' }).click();
  await expect(toastTitled(page, 'Success!')).toContainText('Thank you for subscribing to our newsletter.');

  await openMail(page, await mailedMessage(email, /^Please confirm your subscription/));
  await followAndPress(page, 'Confirm my subscription', 'Confirm subscription', "You're subscribed!");

  await openMail(page, await mailedMessage(email, /^Welcome to the/));
  await followAndPress(page, 'Unsubscribe', 'Unsubscribe', "You're unsubscribed");
});

async function demoSession(request: APIRequestContext, who: string): Promise<SessionAnswer> {
  const res = await request.post('/auth/v1/token?grant_type=password', {
    headers: testClient(),
    data: { email: `${who}@demo.beacongrowth.co`, password: DEMO_PASSWORD },
  });
  expect(res.status(), `sign-in of ${who}`).toBe(200);
  return (await res.json()) as SessionAnswer;
}

test("a member mutes a thread and turns off reply emails from a community reply mail's links", async ({ page, request }) => {
  test.setTimeout(60_000);
  const member = await signedInMember(page, 'mail-links');
  const title = `Does schema markup still pay? ${Date.now()}`;
  await page.goto('/community/general');
  await page.getByRole('button', { name: 'Start a discussion' }).click();
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Your post').fill('We added FAQ schema last month. Worth doing on every page?');
  await page.getByRole('button', { name: 'Post discussion' }).click();
  await page.waitForURL(/\/community\/threads\/[0-9a-f-]{36}$/);
  const threadId = new URL(page.url()).pathname.split('/').pop()!;

  const other = await demoSession(request, 'subscriber');
  const replied = await request.post(`/api/community/threads/${threadId}/replies`, {
    headers: { authorization: `Bearer ${other.access_token}` },
    data: { body: 'Only where the answers are really on the page.' },
  });
  expect(replied.status(), await replied.text()).toBe(201);
  const mail = await mailedMessage(member.email, `replied in "${title}"`);

  // The page is signed out of nothing: the links need no session, only the token in the address.
  await openMail(page, mail);
  await followAndPress(page, 'Mute this thread', 'Mute this thread', 'Thread muted');
  await openMail(page, mail);
  await followAndPress(page, 'Turn off all reply emails', 'Turn off reply emails', 'Reply emails turned off');
});
