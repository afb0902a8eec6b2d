/**
 * Plan changes as a paying member walks them (issue 18), on both payment providers. A member whose
 * subscription was set up through the API upgrades from the pricing page (Current Plan / Upgrade /
 * Switch at renewal, never Subscribe): the level rises at once and the prorated charge is named;
 * switches back at renewal: the account says 'Changes to Subscriber on {date}' while premium stays
 * open; then the renewal (the embedded provider's test clock in its portal, or the Stripe fake's
 * clock and a signed webhook) drops the level. On the embedded provider the journey ends with the
 * cancel confirmation, which says until when access lasts. The Stripe journey runs a second server
 * in this worker, configured with a Stripe key and pointed at the stateful fake.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { loadConfig } from '../../functions/config.ts';
import { startServer } from '../../functions/main.ts';
import { quietLogger } from '../support/fixtures.ts';
import type { Api, Answer, ViewerAnswer } from '../support/answers.ts';
import { freePort } from '../support/postgres.ts';
import { signedEvent, startStripeFake, type StripeFake } from '../support/stripe-fake.ts';
import { seriousViolations } from './axe.ts';
import { PASSWORD, signedInMember } from './members.ts';

const PREMIUM_ARTICLE = '/blog/ai-content-workflow-guardrails';
const SUCCESS = '/payment/confirmation?session_id={CHECKOUT_SESSION_ID}&payment_status=success';
const DATE = /[A-Z][a-z]+ \d{1,2}, \d{4}/;

/** The access token of the session the page's auth client stored. */
const tokenOf = (page: Page) =>
  page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => /^sb-.+-auth-token$/.test(k))!;
    return (JSON.parse(localStorage.getItem(key)!) as { access_token: string }).access_token;
  });

/** Starts a Subscriber monthly checkout for the page's member through the API; answers the session id. */
async function startSubscriberCheckout(page: Page, base: string): Promise<string> {
  const res = await page.request.post(`${base}/api/payments/stripe/create-session`, {
    headers: { authorization: `Bearer ${await tokenOf(page)}` },
    data: { priceId: 'price_subscriber_monthly', successUrl: SUCCESS, cancelUrl: '/pricing?canceled=true' },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as Answer<Api['payments']['stripe']['create-session']['$post']>).sessionId;
}

const tier = (page: Page, name: string) => page.getByRole('article', { name });

/** On /pricing as a Subscriber monthly member: upgrades to Premium, then switches back at renewal. */
async function upgradeThenSwitchBack(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/pricing`);
  await expect(tier(page, 'Subscriber').getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  await expect(tier(page, 'Premium').getByRole('button', { name: 'Upgrade' })).toBeVisible();
  await expect(tier(page, 'Free').getByRole('button', { name: 'Switch at renewal' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('button', { name: 'Subscribe', exact: true })).toHaveCount(0);
  // Yearly: the member's own tier yearly is an upgrade too (a longer period, paid less per month).
  await page.locator('label', { hasText: 'Yearly' }).click();
  await expect(tier(page, 'Subscriber').getByRole('button', { name: 'Upgrade' })).toBeVisible();
  await page.locator('label', { hasText: 'Monthly' }).click();

  await tier(page, 'Premium').getByRole('button', { name: 'Upgrade' }).click();
  const panel = page.getByRole('region', { name: 'Change Your Plan' });
  await expect(panel).toContainText('Today you pay the difference for the rest of your current period (prorated)');
  expect(await seriousViolations(page), 'pricing with the change panel').toEqual([]);
  await panel.getByRole('button', { name: 'Upgrade to Premium' }).click();
  await expect(panel.getByRole('status')).toContainText(/You are on Premium now\. We charged \$\d+\.\d\d today/);
  await expect(tier(page, 'Premium').getByRole('button', { name: 'Current Plan' })).toBeDisabled();

  await tier(page, 'Subscriber').getByRole('button', { name: 'Switch at renewal' }).click();
  await expect(panel).toContainText('Nothing is charged today.');
  await panel.getByRole('button', { name: 'Switch to Subscriber at renewal' }).click();
  await expect(panel.getByRole('status')).toContainText(/Your plan changes to Subscriber on [A-Z][a-z]+ \d{1,2}, \d{4}/);
  await expect(tier(page, 'Subscriber').getByRole('button', { name: /^Starts / })).toBeDisabled();
}

/** The account card with the change held for the period end, and premium still open until then. */
async function expectSwitchHeld(page: Page, base: string) {
  await page.goto(`${base}/account`);
  const card = page.getByRole('region', { name: 'Subscription' });
  await expect(card.getByTestId('subscription-details')).toContainText('Premium');
  await expect(card.getByTestId('scheduled-change')).toContainText(new RegExp(`Changes to Subscriber on ${DATE.source}`));
  await expect(card.getByRole('button', { name: 'Keep Premium' })).toBeVisible();
  return card;
}

test('a subscriber upgrades now, switches back at renewal, crosses the renewal on the test clock, and cancels after a confirmation', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signedInMember(page, 'plan-changes');
  const base = process.env.E2E_BASE_URL!;
  const sessionId = await startSubscriberCheckout(page, base);
  const paid = await page.request.post(`/api/payments/test/checkout/${sessionId}/pay`, {
    data: { cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' },
  });
  expect(paid.ok()).toBe(true);

  await upgradeThenSwitchBack(page, base);
  await page.goto(PREMIUM_ARTICLE);
  await expect(page.getByTestId('article-body')).toBeVisible(); // premium opened at once, and stays until the renewal

  const card = await expectSwitchHeld(page, base);
  // The test clock in the test portal: the renewal applies the held plan.
  await card.getByRole('button', { name: 'Manage Subscription' }).click();
  await page.waitForURL((url) => url.pathname === '/billing/test-portal');
  await expect(page.getByTestId('portal-scheduled')).toContainText('Changes to Subscriber');
  await page.getByRole('button', { name: 'Advance to period end' }).click();
  await expect(page.getByRole('status')).toContainText('Renewed: Subscriber');
  await page.getByRole('link', { name: 'Return to account' }).click();
  await page.waitForURL((url) => url.pathname === '/account');
  await expect(card.getByTestId('subscription-details')).toContainText('Subscriber');
  await expect(card.getByTestId('scheduled-change')).toHaveCount(0);
  await page.goto(PREMIUM_ARTICLE);
  await expect(page.getByTestId('gate-card')).toBeVisible();

  // Cancelling asks first and says until when access lasts; keeping the plan changes nothing.
  await page.goto('/account');
  await card.getByRole('button', { name: 'Cancel Subscription' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel your Subscriber plan?' });
  await expect(confirm).toContainText(
    new RegExp(`You keep your Subscriber access until ${DATE.source}, and you will not be charged again`),
  );
  expect(await seriousViolations(page), 'cancel confirmation').toEqual([]);
  await confirm.getByRole('button', { name: 'Keep my plan' }).click();
  await expect(confirm).toBeHidden();
  await expect(card.getByTestId('subscription-status')).toHaveText('Active');
  await card.getByRole('button', { name: 'Cancel Subscription' }).click();
  await confirm.getByRole('button', { name: 'Yes, cancel' }).click();
  await expect(card.getByTestId('subscription-status')).toHaveText('Canceling');
  await expect(confirm).toBeHidden();
});

test.describe('on Stripe (the stateful fake, through the official SDK)', () => {
  const WEBHOOK_SECRET = 'whsec_e2e_plan_changes';
  let fake: StripeFake;
  let server: { url: string; close(): Promise<void> } | undefined;
  let dataDir: string;

  test.beforeAll(async () => {
    fake = await startStripeFake();
    dataDir = await mkdtemp(path.join(tmpdir(), 'beacon-e2e-stripe-'));
    const port = await freePort();
    // A second server on the same site database, taking payments through Stripe.
    server = await startServer(
      loadConfig({
        HOST: '127.0.0.1',
        PORT: String(port),
        SITE_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: dataDir,
        DATABASE_URL: process.env.TEST_SITE_DB_URL,
        DIST_DIR: process.env.TEST_DIST_DIR,
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        EMAIL_WORKER: 'false',
        STRIPE_SECRET_KEY: 'sk_test_e2e_plan_changes',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: `${fake.protocol}://${fake.host}:${fake.port}`,
      }),
      quietLogger(),
    );
  });

  test.afterAll(async () => {
    await server?.close();
    await fake?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  test('upgrades through a prorated invoice and downgrades through a schedule that the renewal applies', async ({ page }) => {
    test.setTimeout(90_000);
    const base = server!.url;
    // Confirmed on the main server (one database), then signed in on this one.
    const member = await signedInMember(page, 'stripe-plan-changes');
    await page.goto(`${base}/signin`);
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email').fill(member.email);
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.origin === base && url.pathname !== '/signin');
    const sessionId = await startSubscriberCheckout(page, base);
    const subscriptionId = fake.completeSession(sessionId).subscription!.id; // paid at Stripe
    const confirmed = await page.request.post(`${base}/api/payments/stripe/confirm`, {
      headers: { authorization: `Bearer ${await tokenOf(page)}` },
      data: { sessionId },
    });
    expect(await confirmed.json()).toMatchObject({ accessLevel: 'subscriber' });

    await upgradeThenSwitchBack(page, base);
    const update = fake.requests.find((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${subscriptionId}` && r.params.items);
    expect(update?.params).toMatchObject({ proration_behavior: 'always_invoice', payment_behavior: 'pending_if_incomplete' });
    expect(fake.state.subscriptions.get(subscriptionId)!.schedule).toMatch(/^sub_sched_/);
    await expectSwitchHeld(page, base);

    // The renewal at Stripe applies the schedule's next phase; its webhook drops the level.
    fake.advancePeriod(subscriptionId);
    const { payload, header } = signedEvent(WEBHOOK_SECRET, {
      id: `evt_renewal_${subscriptionId}`,
      object: 'event',
      type: 'customer.subscription.updated',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: subscriptionId, object: 'subscription' } },
    });
    const delivered = await page.request.post(`${base}/api/payments/stripe/webhook`, {
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      data: payload,
    });
    expect(delivered.status()).toBe(200);
    await page.reload();
    const card = page.getByRole('region', { name: 'Subscription' });
    await expect(card.getByTestId('subscription-details')).toContainText('Subscriber');
    await expect(card.getByTestId('scheduled-change')).toHaveCount(0);
    const me = await page.request.get(`${base}/api/users/me`, { headers: { authorization: `Bearer ${await tokenOf(page)}` } });
    expect(((await me.json()) as ViewerAnswer).viewer.accessLevel).toBe('subscriber');
  });
});
