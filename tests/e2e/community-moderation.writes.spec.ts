/**
 * An admin moderates a reported post in the browser (writes, so it runs with the writing tests): a
 * new member starts a thread in the demo `general` category and a demo subscriber reports its
 * opening post, both through the API; the admin finds it in the Moderation tab's queue with its report, suspends its
 * author, hides it, and reads both actions in the log. Afterwards members see the post's place
 * without its text, and its author cannot post.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import type { hc, InferResponseType } from 'hono/client';
import type { CommunityRoutes } from '../../functions/community/routes.ts';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import type { SessionAnswer } from '../support/answers.ts';
import { seriousViolations } from './axe.ts';
import { confirmationLink, DEMO_ADMIN, PASSWORD, testClient, uniqueEmail } from './members.ts';
import { signInToAdmin, toastTitled } from './support.ts';

type Community = ReturnType<typeof hc<CommunityRoutes>>;
type ThreadJson = InferResponseType<Community['threads'][':id']['$get'], 200>;

/** An access token for `email`, signed in with the password grant. */
async function tokenOf(request: APIRequestContext, email: string, password: string): Promise<string> {
  const res = await request.post('/auth/v1/token?grant_type=password', { headers: testClient(), data: { email, password } });
  expect(res.ok(), `sign-in of ${email}: ${res.status()}`).toBe(true);
  return ((await res.json()) as SessionAnswer).access_token;
}

/** A new member, confirmed through their mailed link, without a browser: their token. */
async function newMember(request: APIRequestContext, name: string): Promise<string> {
  const email = uniqueEmail('reported');
  const res = await request.post('/auth/v1/signup', {
    headers: testClient(),
    data: { email, password: PASSWORD, data: { name } },
  });
  expect(res.ok(), `sign-up: ${res.status()}`).toBe(true);
  await request.get(await confirmationLink(email), { maxRedirects: 0 });
  return tokenOf(request, email, PASSWORD);
}

test('an admin finds a reported post in the queue, suspends its author, hides it and reads the log', async ({ page, request }) => {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  // A name of its own: a retry's entries (and other tests' actions) are in the same log.
  const name = `Rex ${Date.now().toString(36)}`;
  const author = await newMember(request, name);
  const reporter = await tokenOf(request, 'subscriber@demo.beacongrowth.co', DEMO_PASSWORD);
  const text = `Buy followers cheap, moderation journey ${Date.now()}`;
  const started = await request.post('/api/community/threads', {
    headers: bearer(author),
    data: { category: 'general', title: `Followers for sale ${Date.now()}`, body: text },
  });
  expect(started.status(), await started.text()).toBe(201);
  const { id: threadId } = (await started.json()) as InferResponseType<Community['threads']['$post'], 201>;
  const opened = (await (await request.get(`/api/community/threads/${threadId}`, { headers: bearer(reporter) })).json()) as ThreadJson;
  const postId = opened.posts[0]!.id;
  const reason = `Spam, reported ${Date.now()}`;
  const reported = await request.post(`/api/community/posts/${postId}/report`, { headers: bearer(reporter), data: { reason } });
  expect(reported.status()).toBe(201);

  await signInToAdmin(page, DEMO_ADMIN);
  await page.getByRole('tab', { name: 'Moderation' }).click();
  const item = page.getByRole('list', { name: 'Moderation queue' }).getByRole('listitem', { name: `Opening post by ${name}` });
  await expect(item).toContainText(text);
  await expect(item.getByRole('list', { name: 'Reports' })).toContainText(`Sam Subscriber`);
  await expect(item.getByRole('list', { name: 'Reports' })).toContainText(reason);
  expect(await seriousViolations(page)).toEqual([]);

  await item.getByRole('button', { name: 'Suspend author' }).click();
  const dialog = page.getByRole('dialog', { name: `Suspend ${name} from posting?` });
  await dialog.getByLabel('Suspended for').selectOption({ label: '7 days' });
  await dialog.getByLabel('Reason (for the log)').fill('Selling followers');
  await dialog.getByRole('button', { name: 'Suspend', exact: true }).click();
  await expect(toastTitled(page, 'Member suspended')).toContainText(`${name} cannot post until`);
  await expect(item.getByTestId('moderation-author')).toContainText('Suspended until');

  await item.getByRole('button', { name: 'Hide' }).click();
  await expect(toastTitled(page, 'Post hidden')).toBeVisible();
  await expect(item).toHaveCount(0);

  await page.getByRole('tab', { name: 'Log' }).click();
  const log = page.getByRole('list', { name: 'Moderation log' });
  await expect(log.getByRole('listitem').filter({ hasText: `Hid a post by ${name}` })).toContainText('Ada Admin');
  await expect(log.getByRole('listitem').filter({ hasText: `Suspended a member: ${name}, until` })).toContainText('(Selling followers)');

  // What members see now: the post's place without its text, and its author refused.
  const seen = (await (await request.get(`/api/community/threads/${threadId}`, { headers: bearer(reporter) })).json()) as ThreadJson;
  expect(seen.posts[0]).toMatchObject({ id: postId, status: 'hidden', html: '' });
  expect(JSON.stringify(seen)).not.toContain(text);
  const again = await request.post(`/api/community/threads/${threadId}/replies`, { headers: bearer(author), data: { body: 'Still here' } });
  expect(again.status()).toBe(403);
});
