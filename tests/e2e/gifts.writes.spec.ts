/**
 * A gift membership in the browser (issue 34): a member buys three months of Premium on /gift and
 * pays at the test checkout; their account follows it; the recipient, signed in, opens the mailed
 * gift (the .eml in Chromium), presses its button and redeems it on the redeem page; the account
 * says whose gift it is, and when it runs out the level falls back on their next visit.
 */
import { and, eq } from 'drizzle-orm';
import { expect, test } from '@playwright/test';
import { accessGrants } from '../../functions/payments/grants/tables.ts';
import { seriousViolations } from './axe.ts';
import { mailedMessage, openMail } from './mailbox.ts';
import { signedInMember } from './members.ts';
import { withSiteDb } from './support.ts';

test('a gift is bought, mailed, redeemed and runs out', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const recipientPage = await browser.newPage();
  const recipient = await signedInMember(recipientPage, 'gift-recipient');
  const buyer = await signedInMember(page, 'gift-buyer');

  await page.goto('/gift');
  const form = page.getByRole('form', { name: 'Gift a membership' });
  await form.getByLabel('Premium').check();
  await form.getByLabel('Length').selectOption('3');
  await form.getByLabel("Recipient's email").fill(recipient.email);
  await form.getByLabel("Recipient's name (optional)").fill('Bea');
  await form.getByLabel(/^Your name, as they will see it/).fill('Ana from Beacon');
  await form.getByLabel('Your message (optional)').fill('For the audit project. Enjoy!');
  expect(await seriousViolations(page), 'gift form').toEqual([]);
  await form.getByRole('button', { name: 'Buy the gift for $59.97' }).click();
  await page.waitForURL((url) => url.pathname === '/billing/test-checkout');
  await expect(page.getByTestId('checkout-product')).toHaveText('Gift: Premium, 3 months');
  const card = page.getByRole('form', { name: 'Card details' });
  await card.getByLabel('Card number').fill('4242 4242 4242 4242');
  await card.getByLabel('Expiry').fill('12/34');
  await card.getByLabel('CVC').fill('123');
  await card.getByRole('button', { name: 'Pay $59.97' }).click();
  await page.waitForURL((url) => url.pathname === '/account');
  const gave = page.getByRole('region', { name: 'Gifts you gave' });
  await expect(gave).toContainText(`Premium, 3 months for ${recipient.email} · $59.97`);
  await expect(gave.getByTestId('gift-state')).toContainText(/Sent on|To be sent on/);
  // The buyer's receipt, opened from the .eml: its button leads back to the gift on their account.
  await openMail(page, await mailedMessage(buyer.email, 'Your gift of'));
  await page.getByRole('link', { name: 'Go to my account' }).click();
  await page.waitForURL((url) => url.pathname === '/account');
  await expect(page.getByRole('region', { name: 'Gifts you gave' })).toContainText(recipient.email);

  // The recipient opens the mail and presses its button.
  const mail = await mailedMessage(recipient.email, 'sent you a gift');
  await openMail(recipientPage, mail);
  await expect(recipientPage.locator('blockquote')).toHaveText('For the audit project. Enjoy!');
  await recipientPage.getByRole('link', { name: 'Redeem your gift' }).click();
  await recipientPage.waitForURL((url) => url.pathname === '/gift/redeem');
  await expect(recipientPage.getByTestId('gift-what')).toHaveText('Ana from Beacon gave you Premium, 3 months');
  expect(await seriousViolations(recipientPage), 'redeem page').toEqual([]);
  await recipientPage.getByRole('button', { name: 'Redeem your gift' }).click();
  await expect(recipientPage.getByTestId('gift-redeemed')).toContainText(/Redeemed\. Premium is yours until/);

  await recipientPage.goto('/account');
  await expect(recipientPage.getByRole('region', { name: 'Your access' })).toContainText(/Premium until .+, a gift from Ana from Beacon/);

  // It runs out: on their next visit the level has fallen back.
  await withSiteDb((db) =>
    db
      .update(accessGrants)
      .set({ startsAt: new Date(Date.now() - 2000), endsAt: new Date(Date.now() - 1000) })
      .where(and(eq(accessGrants.userId, recipient.id), eq(accessGrants.source, 'gift'))),
  );
  await recipientPage.goto('/account');
  await expect(recipientPage.getByRole('heading', { name: 'Access Level' }).locator('..')).toContainText('Free');
  await expect(recipientPage.getByRole('region', { name: 'Your access' })).toHaveCount(0);
  await recipientPage.close();
});
