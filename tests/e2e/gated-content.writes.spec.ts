/**
 * Gated content for members (writes accounts and levels, so it runs with the writing tests): the
 * article gate for a level too low and the body once an admin raises it, member downloads, a
 * course without lessons, and a visitor on free items told that a free account is enough (Sign up
 * comes back to the page).
 */
import { expect, test } from '@playwright/test';
import type { PublicItem } from '#shared/content/registry.ts';
import { confirmationLink, PASSWORD, setAccessLevel, signedInMember, uniqueEmail } from './members.ts';
import { apiList, siteContent } from './support.ts';

const ARTICLE = '/blog/chatbot-lead-qualification-design'; // a subscriber article with a public preview
const FREE_ARTICLE = '/blog/ai-automation-small-business-starter-guide';
const FREE_COURSE = 'seo-foundations-small-business'; // free and not sold on its own

test('a visitor on free items is told a free account is enough, and Sign up comes back to the article', async ({ page, request }) => {
  // A free course's lesson: 'Free with an account', Sign up and Sign in back to the lesson, no Upgrade Now.
  const course = (await apiList<Extract<PublicItem, { type: 'course' }>>(request, 'courses')).find((c) => c.slug === FREE_COURSE)!;
  const lessonPath = `/courses/${FREE_COURSE}?lesson=${course.sections[0]!.lessons[0]!.id}`;
  await page.goto(lessonPath);
  const lessonGate = page.getByRole('tabpanel', { name: 'Current Lesson' }).getByTestId('gate-card');
  await expect(lessonGate.getByRole('heading', { name: 'Free with an account' })).toBeVisible();
  await expect(lessonGate).toContainText('This lesson is free for members. Sign up or sign in to open it.');
  await expect(lessonGate.getByRole('link', { name: 'Sign in', exact: true })).toHaveAttribute(
    'href',
    `/signin?redirect=${encodeURIComponent(lessonPath)}`,
  );
  await expect(lessonGate.getByRole('link', { name: 'Sign up', exact: true })).toHaveAttribute(
    'href',
    `/signup?redirect=${encodeURIComponent(lessonPath)}`,
  );
  await expect(lessonGate.getByRole('link', { name: 'Upgrade Now' })).toHaveCount(0);

  // A market card never shows 'Free' beside a price: an item no plan includes is sold separately.
  await page.goto('/market');
  const card = page.getByTestId('content-card').filter({ hasText: '90-Day Social Media Content Pack' });
  await expect(card.getByTestId('access-badge')).toHaveText('Sold separately');
  await expect(card.getByTestId('card-price')).toHaveText('$24.00 one-time');

  // A free article: Sign up, confirm from the mail, and the visitor is back on the article, reading it.
  await page.goto(FREE_ARTICLE);
  const gate = page.getByTestId('gate-card');
  await expect(gate.getByRole('heading', { name: 'Free with an account' })).toBeVisible();
  await expect(gate).toContainText('This article is free for members. Sign up or sign in to read it.');
  await gate.getByRole('link', { name: 'Sign up', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/signup' && url.searchParams.get('redirect') === FREE_ARTICLE);
  const email = uniqueEmail('free-gate');
  const form = page.locator('main form[aria-label="Sign up"]');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign Up' }).click();
  await page.goto(await confirmationLink(email));
  await page.waitForURL((url) => url.pathname === FREE_ARTICLE, { timeout: 15_000 });
  await expect(page.getByTestId('article-body')).toBeVisible();
  await expect(page.getByTestId('gate-card')).toHaveCount(0);
});

test('a free member sees the Subscriber Content gate, and the body once an admin raises their level', async ({ page }) => {
  const member = await signedInMember(page, 'gate');
  await page.goto(ARTICLE);
  const gate = page.getByTestId('gate-card');
  await expect(gate.getByRole('heading', { name: 'Subscriber Content' })).toBeVisible();
  await expect(gate).toContainText('This article is available to subscribers.');
  await expect(gate.getByRole('link', { name: 'Upgrade Now' })).toHaveAttribute('href', '/pricing');
  await expect(gate.getByRole('link', { name: 'Sign In' })).toHaveCount(0); // signed in: upgrade only
  await expect(page.getByTestId('article-preview')).toContainText('Start with the job, not the technology');
  await expect(page.getByTestId('article-body')).toHaveCount(0);

  await setAccessLevel(page.request, member.id, 'subscriber');
  await page.reload();
  const body = page.getByTestId('article-body');
  await expect(body.getByRole('heading', { name: 'Map intents from real conversations' })).toBeVisible();
  // The whole body starts with the preview, which is not shown twice.
  await expect(body).toContainText('Start with the job, not the technology');
  await expect(page.getByTestId('article-preview')).toBeHidden();
  await expect(page.getByTestId('gate-card')).toHaveCount(0);
});

test('members download what their level allows and meet the gate above it', async ({ page }) => {
  await signedInMember(page, 'downloads');
  // A free market item without a price downloads at once through a signed link (priced ones are bought first).
  await page.goto('/market/ga4-starter-report-pack');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  expect((await download).suggestedFilename()).toMatch(/\.zip$/);

  // A free tool: a direct download for members, and the lead dialog still there.
  await page.goto('/tools/keyword-research-template');
  await expect(page.getByRole('button', { name: 'Email me the link' })).toBeVisible();
  const toolDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  expect((await toolDownload).suggestedFilename()).toMatch(/\.csv$/);

  // Above the member's level: the gate, Upgrade Now only.
  await page.goto('/tools/local-seo-citation-tracker');
  const gate = page.getByTestId('gate-card');
  await expect(gate.getByRole('heading', { name: 'Subscriber Content' })).toBeVisible();
  await expect(gate.getByRole('link', { name: 'Sign In' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Download', exact: true })).toHaveCount(0);
});

test('a course without lessons says that no lesson is selected', async ({ page }) => {
  const content = await siteContent();
  try {
    const course = await content.service.create('course', {
      title: 'A course still being written',
      description: 'Lessons for this course are on their way.',
      tags: ['Draft'],
      accessLevel: 'free',
      sections: [],
    });
    try {
      await page.goto(`/courses/${course.slug}`);
      // A click before the viewer hydrates does nothing: click until the tab is selected.
      const tab = page.getByRole('tab', { name: 'Current Lesson' });
      await expect(async () => {
        await tab.click();
        await expect(tab).toHaveAttribute('aria-selected', 'true', { timeout: 1_000 });
      }).toPass();
      await expect(page.getByRole('tabpanel', { name: 'Current Lesson' })).toHaveText(
        'No lesson selected. Please select a lesson from the curriculum.',
      );
      await expect(page.getByRole('region', { name: 'Curriculum' })).toContainText('Lessons are being prepared.');
    } finally {
      await content.service.remove('course', course.id);
    }
  } finally {
    await content.close();
  }
});
