/**
 * Create Content in the browser (writes content, so it runs with the writing tests): visitors are
 * sent to sign in and members away; an editor creates a blog post with an image by hand (the
 * schema's texts first, each gone once its field is valid; an upload on a slow link shows its
 * progress and is cancelled; then the toast and the list), drafts a course with AI, edits it
 * and publishes it, and creates an online event in their own time zone. The items are removed afterwards.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import { seriousViolations } from './axe.ts';
import { signedInMember } from './members.ts';
import { siteContent, toastTitled } from './support.ts';

const IMAGE = path.resolve(import.meta.dirname, '../../public/media/cover-ai-content.png');
async function signInAsEditor(page: Page): Promise<void> {
  await page.goto('/signin?redirect=%2Fcreate');
  const form = page.locator('main form[aria-label="Sign in"]');
  await form.getByLabel('Email').fill('editor@demo.beacongrowth.co');
  await form.getByLabel('Password').fill(DEMO_PASSWORD);
  await form.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => url.pathname === '/create');
  await expect(page.getByRole('heading', { level: 1, name: 'Create Content' })).toBeVisible();
}

async function removeCreated(type: 'blog' | 'course' | 'event', title: string): Promise<void> {
  const content = await siteContent();
  try {
    for (const item of await content.service.list(type))
      if (item.title === title && item.source === 'db') await content.service.remove(type, item.id);
  } finally {
    await content.close();
  }
}

test('visitors are sent to sign in, and members away from /create', async ({ page }) => {
  await page.goto('/create');
  await page.waitForURL((url) => url.pathname === '/signin' && url.searchParams.get('redirect') === '/create');
  await signedInMember(page, 'not-an-editor');
  await page.goto('/create');
  await page.waitForURL((url) => url.pathname === '/');
});

test('an editor creates a blog post with an image by hand and finds it in the list and at its URL', async ({ page }) => {
  const title = `Bakery SEO by hand ${Date.now()}`;
  await signInAsEditor(page);
  try {
    const form = page.getByRole('form', { name: 'Create content' });
    await form.getByLabel('Title').fill('ab');
    await form.getByLabel('Description').fill('short');
    await form.getByRole('button', { name: 'Create', exact: true }).click();
    await expect(form.getByText('Title must be at least 3 characters')).toBeVisible();
    await expect(form.getByText('Description must be at least 10 characters')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // A field's error goes as soon as the field is valid; the other stays until its own field is.
    await form.getByLabel('Title').fill(title);
    await expect(form.getByText('Title must be at least 3 characters')).toHaveCount(0);
    await expect(form.getByText('Description must be at least 10 characters')).toBeVisible();
    await form.getByLabel('Description').fill('How a neighbourhood bakery gets found on the map.');
    await expect(form.getByText('Description must be at least 10 characters')).toHaveCount(0);

    // On a slow link the upload shows its progress and can be cancelled: nothing is added.
    const cdp = await page.context().newCDPSession(page);
    const uploadSpeed = (bytesPerSecond: number) =>
      cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: bytesPerSecond,
      });
    await cdp.send('Network.enable');
    await uploadSpeed(256 * 1024);
    await form.getByLabel('Media').setInputFiles({ name: 'big-photo.png', mimeType: 'image/png', buffer: Buffer.alloc(4 * 1024 * 1024) });
    const bar = form.getByRole('progressbar', { name: 'Uploading big-photo.png' });
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
    await expect(form.getByTestId('upload-progress')).toContainText(/\d+%/);
    await form.getByRole('button', { name: 'Cancel upload' }).click();
    await expect(form.getByText('Upload of big-photo.png canceled.')).toBeVisible();
    await expect(bar).toHaveCount(0);
    await expect(form.getByRole('list', { name: 'Uploaded media' })).toHaveCount(0);
    await uploadSpeed(-1);

    await form.getByLabel('Content').fill('## Start with the map\n\nClaim the listing first.');
    await form.getByLabel('Tags').fill('SEO, Local , ');
    await form.getByLabel('Media').setInputFiles(IMAGE);
    const media = form.getByRole('list', { name: 'Uploaded media' });
    await expect(media.getByRole('listitem')).toHaveCount(1);
    await expect(media).toContainText('cover-ai-content.png (image)');
    await form.getByRole('button', { name: 'Create', exact: true }).click();
    await expect(toastTitled(page, 'Blog created')).toContainText(`"${title}" has been created successfully.`);
    await page.waitForURL((url) => url.pathname === '/blog');
    await page.getByRole('link', { name: title }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByTestId('article-body').getByRole('heading', { name: 'Start with the map' })).toBeVisible();
    await expect(page.locator('main img[src^="/uploads/"]').first()).toBeVisible();
  } finally {
    await removeCreated('blog', title);
  }
});

test('an editor drafts a course with AI, edits it and publishes it', async ({ page }) => {
  await signInAsEditor(page);
  await page.getByRole('tab', { name: 'Course' }).click();
  const form = page.getByRole('form', { name: 'Create content' });
  await form.getByRole('tab', { name: 'AI Generation' }).click();
  const generate = form.getByRole('button', { name: 'Generate' });
  await expect(generate).toBeDisabled();
  await form.getByLabel('What should it be about?').fill('email marketing for online shops');
  await generate.click();
  const preview = form.getByRole('region', { name: 'Generated content' });
  await expect(preview.getByRole('heading', { level: 2 })).not.toBeEmpty();
  await preview.getByRole('button', { name: 'Edit Generated Content' }).click();
  const title = `${await form.getByLabel('Title').inputValue()} ${Date.now()}`.slice(0, 200);
  expect(title.length).toBeGreaterThan(13);
  try {
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Duration').fill('3 weeks');
    await form.getByRole('button', { name: 'Add Section' }).click();
    await form.getByLabel('Section 1 title').fill('Getting started');
    await form.getByLabel('Lesson 1 title').fill('Your first campaign');
    await form.getByLabel('Lesson 1 content').fill('Pick one audience and one offer.');
    await form.getByRole('button', { name: 'Create', exact: true }).click();
    await expect(toastTitled(page, 'Course created')).toBeVisible();
    await page.waitForURL((url) => url.pathname === '/courses');
    await page.getByRole('link', { name: title }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Curriculum' })).toContainText('Your first campaign');
  } finally {
    await removeCreated('course', title);
  }
});

test.describe('an editor in New York', () => {
  test.use({ timezoneId: 'America/New_York' });

  test('creates an online event at a local time in their own zone, and is told first that it needs its join URL', async ({ page }) => {
    const title = `Live SEO clinic ${Date.now()}`;
    await signInAsEditor(page);
    await page.getByRole('tab', { name: 'Event' }).click();
    const form = page.getByRole('form', { name: 'Create content' });
    try {
      await form.getByLabel('Title').fill(title);
      await form.getByLabel('Description').fill('An hour of questions on local search, answered live.');
      await expect(form.getByLabel('Time zone')).toHaveValue('America/New_York');
      await form.getByLabel('Starts at').fill('2027-06-15T14:00');
      await form.getByLabel('Duration (minutes)').fill('45');
      await form.getByLabel('About the event').fill('Bring your own listing.');
      await form.getByRole('button', { name: 'Create', exact: true }).click();
      await expect(form.getByText('An online event needs a join URL (https)')).toBeVisible();
      await form.getByLabel('Join URL').fill('https://meet.events.example/live-seo-clinic');
      await expect(form.getByText('An online event needs a join URL (https)')).toHaveCount(0);
      await form.getByRole('button', { name: 'Create', exact: true }).click();
      await expect(toastTitled(page, 'Event created')).toBeVisible();
      await page.waitForURL((url) => url.pathname === '/events');
      await page.getByRole('link', { name: title }).first().click();
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(page.getByTestId('event-start')).toHaveText('Tue 15 Jun 2027, 14:00 EDT (America/New_York)');
      await expect(page.getByTestId('event-body')).toHaveText('Bring your own listing.');
      expect(await page.content()).not.toContain('meet.events.example');
    } finally {
      await removeCreated('event', title);
    }
  });
});
