/**
 * The support desk in the browser (writes requests and mail, so it runs with the writing tests): a
 * premium member sees the Priority target, opens a request with a screenshot, and an admin answers it
 * from the dashboard's Support tab (the queue's Priority badge and countdown, the conversation with
 * the attachment); the member sees the reply on /account/support, which the reply mail links to.
 */
import { expect, test } from '@playwright/test';
import { and, eq } from 'drizzle-orm';
import { emails } from '../../functions/email/tables.ts';
import { PNG } from '../support/uploads.ts';
import { seriousViolations } from './axe.ts';
import { DEMO_ADMIN, setAccessLevel, signedInMember } from './members.ts';
import { signInToAdmin, withSiteDb } from './support.ts';

test('a premium member opens a request with an attachment and reads the reply staff wrote in the Support tab', async ({
  page,
  browser,
}) => {
  const subject = `Invoice question ${Date.now()}`;
  const member = await signedInMember(page, 'support-desk');
  await setAccessLevel(page.request, member.id, 'premium');

  await page.goto('/account/support');
  await expect(page.getByText('Priority support: first response within 1 business day.')).toBeVisible();
  const form = page.getByRole('form', { name: 'New support request' });
  await form.getByLabel('Subject').fill(subject);
  await form.getByLabel('Message').fill('The November invoice lists two seats.\nWe only have one.');
  await form.getByLabel('Attachment (optional)').setInputFiles({ name: 'invoice.png', mimeType: 'image/png', buffer: PNG });
  expect(await seriousViolations(page)).toEqual([]);
  await form.getByRole('button', { name: 'Send request' }).click();
  await page.waitForURL((url) => url.pathname === '/account/support' && url.searchParams.has('request'));
  const requestUrl = page.url();
  await expect(page.getByRole('heading', { name: subject })).toBeVisible();
  await expect(page.getByTestId('request-status')).toContainText('Open · Priority');
  await expect(page.getByRole('button', { name: /Download invoice\.png/ })).toBeVisible();

  // Staff answer from the dashboard, in a browser of their own.
  const staff = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  try {
    const admin = await staff.newPage();
    await signInToAdmin(admin, DEMO_ADMIN);
    await admin.getByRole('tab', { name: 'Support' }).click();
    const queue = admin.getByRole('list', { name: 'Support queue' });
    const item = queue.getByRole('listitem').filter({ hasText: subject });
    await expect(item.getByText('Priority')).toBeVisible();
    await expect(item.getByText(/^Due in /)).toBeVisible();
    await item.getByRole('button', { name: subject }).click();
    await expect(admin.getByRole('button', { name: /Download invoice\.png/ })).toBeVisible();
    const reply = admin.getByRole('form', { name: 'Reply or add a note' });
    await reply.getByLabel('Your reply').fill('You are right: we refunded the second seat.');
    await reply.getByRole('button', { name: 'Send reply' }).click();
    await expect(admin.getByRole('list', { name: 'Messages' })).toContainText('You are right: we refunded the second seat.');
  } finally {
    await staff.close();
  }

  // The member hears of it by mail, with the way back to the conversation.
  const mail = await withSiteDb((db) =>
    db
      .select()
      .from(emails)
      .where(and(eq(emails.to, member.email), eq(emails.template, 'support-reply'))),
  );
  expect(mail).toHaveLength(1);
  expect(mail[0]!.bodyText).toContain(requestUrl);
  await page.goto(requestUrl);
  const messages = page.getByRole('list', { name: 'Messages' });
  await expect(messages.getByRole('listitem')).toHaveCount(2);
  await expect(messages.getByRole('listitem').nth(1)).toContainText('Ada Admin (Beacon Growth)');
  await expect(messages.getByRole('listitem').nth(1)).toContainText('You are right: we refunded the second seat.');
  await expect(page.getByTestId('request-status')).toContainText('Waiting for your reply');
});
