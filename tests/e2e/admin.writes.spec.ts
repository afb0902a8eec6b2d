/**
 * The admin dashboard in the browser (writes mail rows, so it runs with the writing tests): members,
 * premium ones included, are sent away and refused by the API; an admin sees a queued email's
 * visible text (not its head) and why it is still waiting, and a failed email whose stored HTML
 * tries to run script and load an image (the preview does neither), and resends it. At 1366 px
 * the seven tabs fit one row.
 */
import { expect, test } from '@playwright/test';
import { inArray } from 'drizzle-orm';
import { emails } from '../../functions/email/tables.ts';
import { html } from '../../functions/email/templates/html.ts';
import { layout } from '../../functions/email/templates/layout.ts';
import type { PublicItemOf } from '#shared/content/registry.ts';
import { seriousViolations } from './axe.ts';
import { DEMO_ADMIN, setAccessLevel, signedInMember } from './members.ts';
import { signInToAdmin, siteContent, toastTitled, withSiteDb } from './support.ts';

const HOSTILE_BODY =
  '<b>Hello</b> reader <img src="http://127.0.0.1:9/pixel.png" onerror="window.__xss=1"><script>window.__xss=2</script>' +
  '<a href="javascript:window.__xss=3">click</a><style>body{background:url(http://127.0.0.1:9/bg.png)}</style>';

test('a premium member who is not an admin is sent away from /admin, and the API refuses them', async ({ page }) => {
  const member = await signedInMember(page, 'premium-not-admin');
  await setAccessLevel(page.request, member.id, 'premium');
  await page.goto('/admin');
  await page.waitForURL((url) => url.pathname === '/');
  const token = await page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => /^sb-.+-auth-token$/.test(k))!;
    return (JSON.parse(localStorage.getItem(key)!) as { access_token: string }).access_token;
  });
  const res = await page.request.get('/api/email/queue?limit=10', { headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(403);
});

test.describe('at 1366 x 768', () => {
  test.use({ viewport: { width: 1366, height: 768 } });

  test("the admin's tab bar is one row", async ({ page }) => {
    await signInToAdmin(page, DEMO_ADMIN);
    const tabs = page.getByRole('tablist', { name: 'Admin sections' }).getByRole('tab');
    await expect(tabs).toHaveCount(9);
    const boxes = await tabs.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().top));
    expect(new Set(boxes).size, `tab tops: ${boxes.join(', ')}`).toBe(1);
  });
});

test('an admin sees a queued email explained and its text previewed, and a failed one safely previewed and resent', async ({ page }) => {
  const subject = `Failed delivery ${Date.now()}`;
  const waitingSubject = `Waiting delivery ${Date.now()}`;
  // A real message: a whole document (head, title, a hidden inbox preheader, layout tables), retried three times.
  const document = layout({
    siteUrl: 'https://beacongrowth.co',
    preheader: 'Hidden inbox preheader',
    content: html`<p>Hi Ada, your <strong>download link</strong> is ready.</p>
      <p>${'It stays valid for seven days. '.repeat(12)}</p>`,
  });
  const [waiting] = await withSiteDb((db) =>
    db
      .insert(emails)
      .values({
        subject: waitingSubject,
        bodyHtml: document,
        bodyText: 'Hi Ada',
        to: 'ada@example.com',
        from: 'Beacon Growth <hello@beacongrowth.co>',
        template: 'lead-download',
        status: 'queued',
        attempts: 3,
        errorMessage: 'connect ECONNREFUSED 127.0.0.1:2525',
        nextAttemptAt: new Date(Date.now() + 10 * 60_000),
      })
      .returning(),
  );
  const [row] = await withSiteDb((db) =>
    db
      .insert(emails)
      .values({
        subject,
        bodyHtml: HOSTILE_BODY,
        bodyText: 'Hello reader',
        to: 'reader@example.com',
        from: 'Beacon Growth <hello@beacongrowth.co>',
        template: 'contact-acknowledgement',
        status: 'failed',
        attempts: 6,
        errorMessage: '550 mailbox unavailable',
        updatedAt: new Date(Date.now() + 3_600_000), // the newest of the recent list
      })
      .returning(),
  );
  const outside: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith('http://127.0.0.1:9/')) outside.push(request.url());
  });
  try {
    await signInToAdmin(page, DEMO_ADMIN);
    await expect(page.getByRole('heading', { name: 'Email Dashboard' })).toBeVisible();
    // The queue: the message's visible text, cut at 200 characters, and why it has not gone yet.
    const queued = page.getByRole('listitem', { name: waitingSubject });
    const text = queued.getByTestId('email-preview');
    await expect(text).toContainText('Hi Ada, your download link is ready.');
    // The message's own words first: not the layout's brand header, the same in every mail.
    expect(((await text.textContent()) ?? '').trim()).toMatch(/^Hi Ada/);
    await expect(text.locator('strong')).toHaveText('download link');
    await expect(text).not.toContainText('Hidden inbox preheader');
    const shown = ((await text.textContent()) ?? '').replace(/\s+/g, ' ').trim();
    expect(shown.endsWith('...')).toBe(true);
    expect(shown.length).toBeLessThanOrEqual(203);
    const delivery = queued.getByTestId('email-delivery');
    await expect(delivery).toContainText('Attempts3 of 6');
    await expect(delivery).toContainText('Last errorconnect ECONNREFUSED 127.0.0.1:2525');
    await expect(delivery).toContainText(/Next attempt.+\(in (9|10) minutes\)/);

    await page.getByRole('tab', { name: 'Recent Emails' }).click();
    const card = page.getByRole('listitem', { name: subject });
    await expect(card.getByTestId('email-status')).toHaveText('failed');
    await expect(card).toContainText('reader@example.com');
    await expect(card).toContainText('550 mailbox unavailable');
    const preview = card.getByTestId('email-preview');
    await expect(preview.locator('b')).toHaveText('Hello');
    await expect(preview.locator('img, script, style')).toHaveCount(0);
    await expect(preview.locator('a')).not.toHaveAttribute('href', /.+/);
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    expect(outside).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);

    await card.getByRole('button', { name: 'Resend' }).click();
    await expect(card.getByTestId('email-status')).toHaveText('queued');
    await expect(card.getByRole('button', { name: 'Resend' })).toHaveCount(0);
  } finally {
    await withSiteDb((db) => db.delete(emails).where(inArray(emails.id, [row!.id, waiting!.id])));
  }
});

test("an admin changes a member's level and sees it in the audit log, and reads the overview", async ({ page, browser }) => {
  const memberPage = await browser.newPage();
  const member = await signedInMember(memberPage, 'level-change');

  await signInToAdmin(page, DEMO_ADMIN);
  await page.getByRole('tab', { name: 'User Management' }).click();
  await page.getByRole('searchbox', { name: 'Search members' }).fill(member.email);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const row = page.getByRole('listitem', { name: member.email });
  await expect(row.getByTestId('member-summary')).toContainText('Free · Member · No subscription · 0 purchases');
  await row.getByLabel('Access level').selectOption('premium');
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('listitem', { name: member.email }).getByTestId('member-summary')).toContainText('Premium · Member');
  await expect(page.getByTestId('audit-log')).toContainText(`${member.email}: access level free → premium, by ${DEMO_ADMIN}`);
  expect(await seriousViolations(page)).toEqual([]);

  // The level is a comp in the grants ledger: shown on the card, and a dated one given beside it.
  const card = page.getByRole('listitem', { name: member.email });
  await expect(card).toContainText('Premium · Comp, no end date');
  const until = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
  await card.getByLabel('Comp level').selectOption('subscriber');
  await card.getByLabel('Until (empty: no end)').fill(until);
  await card.getByLabel('Note').fill('Client seat for the audit project');
  await card.getByRole('button', { name: 'Give comp' }).click();
  await expect(page.getByRole('listitem', { name: member.email })).toContainText('“Client seat for the audit project”');
  await expect(page.getByTestId('audit-log')).toContainText(`${member.email}: comp of subscriber given, by ${DEMO_ADMIN}`);
  // Ending the open Premium comp leaves the dated Subscriber one.
  const open = page.getByRole('listitem', { name: member.email }).getByRole('listitem').filter({ hasText: 'Premium · Comp' });
  await open.getByRole('button', { name: 'End comp' }).click();
  await expect(page.getByRole('listitem', { name: member.email }).getByTestId('member-summary')).toContainText('Subscriber · Member');
  expect(await seriousViolations(page)).toEqual([]);

  // The member's account page says what their access rests on, in words.
  await memberPage.goto('/account');
  const access = memberPage.getByRole('region', { name: 'Your access' });
  await expect(access).toContainText(/Subscriber until \d{1,2} [A-Z][a-z]+( \d{4})?, complimentary/);
  await expect(access).not.toContainText('Client seat');
  expect(await seriousViolations(memberPage)).toEqual([]);
  await memberPage.close();

  await page.getByRole('tab', { name: 'Overview' }).click();
  const stats = page.getByTestId('overview-stats');
  await expect(stats).toContainText('Members');
  await expect(stats).toContainText('Monthly recurring revenue');
  await expect(page.getByTestId('overview-chart').locator('canvas')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('an admin lists content from both sources, git items read-only, edits, unpublishes, publishes and deletes a database item', async ({
  page,
}) => {
  let title = `Database tool to delete ${Date.now()}`;
  const content = await siteContent();
  try {
    await content.service.create('tool', {
      title,
      description: 'A tool written in the creator tools, about to be deleted.',
      tags: ['Testing'],
      accessLevel: 'free',
    });
  } finally {
    await content.close();
  }
  await signInToAdmin(page, DEMO_ADMIN);
  await page.getByRole('tab', { name: 'Content Management' }).click();
  const list = page.getByRole('list', { name: 'Content items' });
  await page.getByLabel('Filter by title').fill('Guardrails');
  const git = list.getByRole('listitem').first();
  await expect(git.getByTestId('content-meta')).toContainText('Git: content/blog/');
  await expect(git.getByTestId('content-meta')).toContainText('(read-only)');
  await expect(git.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByLabel('Filter by title').fill(title);
  const original = list.getByRole('listitem', { name: title });
  await expect(original.getByTestId('content-meta')).toHaveText('Tool · Free · Database');

  // Edit opens the form filled from the item; saving changes it where it is.
  await original.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Edit Content' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Create content' });
  await expect(form.getByLabel('Title')).toHaveValue(title);
  await expect(form.getByLabel('Tags')).toHaveValue('Testing');
  title = `${title} (edited)`;
  await form.getByLabel('Title').fill(title);
  await form.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toastTitled(page, 'Tool updated')).toBeVisible();
  await page.waitForURL((url) => url.pathname.startsWith('/tools/'));
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const itemPath = new URL(page.url()).pathname;
  const publicTitles = async () =>
    ((await (await page.request.get('/api/public/tools')).json()) as PublicItemOf<'tool'>[]).map((t) => t.title);

  // Unpublish takes it off the site but keeps it here, marked; Publish brings it back.
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Content Management' }).click();
  await page.getByLabel('Filter by title').fill(title);
  const row = list.getByRole('listitem', { name: title });
  await row.getByRole('button', { name: 'Unpublish' }).click();
  await expect(toastTitled(page, 'Unpublished')).toBeVisible();
  await expect(row.getByText('Unpublished', { exact: true })).toBeVisible();
  expect(await publicTitles()).not.toContain(title);
  expect((await page.request.get(itemPath)).status()).toBe(404);
  await row.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('note')).toContainText('This item is unpublished.');
  await page.goBack();
  await page.getByRole('tab', { name: 'Content Management' }).click();
  await page.getByLabel('Filter by title').fill(title);
  await row.getByRole('button', { name: 'Publish' }).click();
  await expect(toastTitled(page, 'Published')).toBeVisible();
  await expect(row.getByRole('button', { name: 'Unpublish' })).toBeVisible();
  expect(await publicTitles()).toContain(title);
  expect((await page.request.get(itemPath)).status()).toBe(200);

  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: 'Delete' }).click();
  await expect(toastTitled(page, 'Deleted')).toBeVisible();
  await expect(list.getByRole('listitem', { name: title })).toHaveCount(0);
  expect(await publicTitles()).not.toContain(title);
});

test("staff search the content's text, drafts included and marked, the snippet highlighted as text", async ({ page }) => {
  const word = `Searchdraftword${Date.now()}`;
  const title = `Draft found by its text ${Date.now()}`;
  const content = await siteContent();
  try {
    await content.service.create('blog', {
      title,
      description: 'An unpublished article staff find by a word of its body.',
      tags: ['Testing'],
      accessLevel: 'premium',
      content: `When x < y & z, only the body says ${word}.`,
      published: false,
    });
  } finally {
    await content.close();
  }
  await signInToAdmin(page, DEMO_ADMIN);
  await page.getByRole('tab', { name: 'Content Management' }).click();
  const search = page.getByRole('search');
  await search.getByRole('searchbox').fill(word);
  await search.getByRole('button', { name: 'Search' }).click();
  const results = page.getByRole('list', { name: 'Search results' });
  const hit = results.getByRole('listitem').filter({ hasText: title });
  await expect(hit).toHaveCount(1);
  await expect(hit.getByText('Unpublished', { exact: true })).toBeVisible();
  await expect(hit.locator('mark')).toHaveText(word);
  // The snippet comes escaped and is shown as text: the reader sees "<" and "&", not entities.
  await expect(hit).toContainText('x < y & z');
  expect(await seriousViolations(page)).toEqual([]);
});
