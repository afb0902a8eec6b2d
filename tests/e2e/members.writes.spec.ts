/**
 * The members as a business list in the browser (issue 35): an admin imports a small members file
 * (the dry run shows the bad row, then the good ones are imported, levels as dated comps), filters by
 * a label the file carried, saves the filter as a segment and exports the filtered members as CSV;
 * then writes a newsletter issue to that segment alone, sends it, and exactly the segment's members
 * who get the newsletter find it in their mailbox; and reads the monthly recurring revenue chart on
 * the Overview tab, as a picture and as its table. A visitor who landed from a campaign
 * (`?utm_source=`) and then signed up shows that source on their admin card.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import PostalMime from 'postal-mime';
import { CSV_COLUMNS } from '#shared/members.ts';
import { emails } from '../../functions/email/tables.ts';
import { newsletterIssues } from '../../functions/newsletter/tables.ts';
import { seriousViolations } from './axe.ts';
import { mailedMessage } from './mailbox.ts';
import { DEMO_ADMIN, PASSWORD, testClient, uniqueEmail } from './members.ts';
import { signInToAdmin, toastTitled, withSiteDb } from './support.ts';

/** The addresses every mail in the mailbox with exactly this subject went to, sorted. */
async function mailboxRecipients(subject: string): Promise<string[]> {
  const dir = process.env.E2E_MAILBOX_DIR!;
  const to: string[] = [];
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.eml'))) {
    const mail = await PostalMime.parse(await readFile(path.join(dir, name)));
    if (mail.subject === subject) to.push(...(mail.to ?? []).map((a) => a.address ?? ''));
  }
  return to.sort();
}

/**
 * Writes an issue to the segment alone (the levels a new issue starts with taken off), checks the
 * count it would reach, and sends it through the confirmation; back on the list, its account.
 */
async function sendToSegment(page: Page, segment: string, subject: string, body: string, reach: number) {
  await page.getByRole('tab', { name: 'Newsletter' }).click();
  await page.getByRole('button', { name: 'New issue' }).click();
  const form = page.getByRole('form', { name: 'Newsletter issue' });
  await form.getByLabel('Subject').fill(subject);
  await form.getByLabel('Body').fill(body);
  for (const level of ['Newsletter subscribers', 'Subscribers', 'Premium members'])
    await form.getByRole('checkbox', { name: level, exact: true }).uncheck();
  await expect(form.getByTestId('audience-total')).toHaveText('Nobody would receive this issue now.');
  await form.getByRole('checkbox', { name: `Segment: ${segment}`, exact: true }).check();
  // The server's count for the segment: its members who get the newsletter, not one who turned it off.
  await expect(form.getByTestId('audience-total')).toHaveText(`This issue would go to ${reach} recipients now.`);

  await page.getByRole('button', { name: 'Send now' }).click();
  const confirm = page.getByRole('dialog', { name: 'Send this issue now?' });
  await expect(confirm).toContainText(`“${subject}” goes now to a segment.`);
  await confirm.getByRole('button', { name: 'Send to everyone' }).click();
  await expect(toastTitled(page, 'Sending')).toContainText(subject);
  const listed = page.getByRole('listitem', { name: subject });
  await expect(listed.getByTestId('issue-meta')).toHaveText('To a segment · Subscriber level');
  // The list reads the account again while the issue sends: every copy out, none held back.
  await expect(listed.getByTestId('issue-stats')).toContainText(
    `${reach} sent / 0 failed / 0 suppressed / 0 pending of ${reach} recipients`,
    {
      timeout: 30_000,
    },
  );
}

/** The Overview's Revenue section: the MRR chart drawn, and its table of the default twelve months up to this one. */
async function readRevenueChart(page: Page) {
  await page.getByRole('tab', { name: 'Overview' }).click();
  const revenue = page.getByRole('region', { name: 'Revenue' });
  const thisMonth = new Date().toISOString().slice(0, 7);
  await expect(revenue.getByTestId('revenue-totals')).toContainText(`MRR at the end of ${thisMonth}`);
  const mrr = revenue.getByRole('figure', { name: 'Monthly recurring revenue' });
  await expect(mrr.getByTestId('revenue-chart')).toBeVisible();
  // The line is drawn through a point a month.
  await expect(mrr.getByTestId('revenue-chart').locator('circle')).toHaveCount(12);
  const table = mrr.getByRole('table', { name: 'Monthly recurring revenue' });
  await expect(table).toBeHidden();
  await mrr.getByText('Show as table').click();
  await expect(table).toBeVisible();
  await expect(table.getByRole('columnheader')).toHaveText(['Month', 'MRR']);
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(12);
  await expect(rows.last().getByRole('rowheader')).toHaveText(thisMonth);
  // Every month has a figure in dollars (the demo's paying members may make it more than zero).
  for (const cell of await table.locator('tbody td').allTextContents()) expect(cell).toMatch(/^−?\$[\d,]+(\.\d{2})?$/);
  expect(await seriousViolations(page), 'overview with the revenue table open').toEqual([]);
}

test('an admin imports a members file, builds a segment from its label, exports it, sends an issue to it and reads the revenue chart', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const label = `E2E import ${stamp}`;
  const segment = `Imported ${stamp}`;
  const [ada, bob, cy, dan] = ['ada', 'bob', 'cy', 'dan'].map((n) => `${n}.${stamp}@import.example.com`) as [
    string,
    string,
    string,
    string,
  ];
  // A year of Subscriber comp each, so each gets the newsletter by their level unless they said no.
  const until = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
  const file = [
    'email,name,labels,newsletter,comp_level,comp_until',
    `${ada},Ada Import,${label},yes,subscriber,${until}`,
    `not-an-address,Bad Row,${label},yes,,`,
    `${bob},Bob Import,${label};Other,,subscriber,${until}`,
    // In the segment, but turned the newsletter off.
    `${cy},Cy Import,${label},no,subscriber,${until}`,
    // Gets the newsletter, but is not in the segment.
    `${dan},Dan Import,Other,yes,subscriber,${until}`,
  ].join('\n');
  const subject = `Segment news ${stamp}`;

  await signInToAdmin(page, DEMO_ADMIN);
  await page.getByRole('tab', { name: 'User Management' }).click();
  const members = page.getByRole('region', { name: 'Members file' });
  await members.getByLabel('CSV file to import').setInputFiles({ name: 'members.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
  await members.getByRole('button', { name: 'Import CSV' }).click();
  // The dry run: five rows read, the bad one's problem in the table, nothing written yet.
  await expect(members.getByTestId('members-file-status')).toHaveText('5 rows read; 1 problem found.');
  const problems = members.getByRole('table', { name: 'Problems the dry run found' });
  await expect(problems.getByRole('row')).toHaveCount(2);
  await expect(problems.getByRole('row').nth(1)).toContainText(/^3.*email/);
  expect(await seriousViolations(page), 'dry run').toEqual([]);
  await members.getByRole('button', { name: 'Import 4 members' }).click();
  await expect(members.getByTestId('members-file-status')).toHaveText('Imported: 4 created, 0 updated, 1 row left out.');
  await expect(members.getByRole('table', { name: 'Rows left out of the import' })).toContainText('email');

  // Filter by the file's label: exactly its three members.
  const filters = page.getByRole('search', { name: 'Filter members' });
  await filters.getByText('More filters').click();
  await expect(filters.getByLabel('Label', { exact: true }).locator('option', { hasText: label })).toHaveCount(1);
  await filters.getByLabel('Label', { exact: true }).selectOption(label);
  await filters.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByTestId('member-count')).toHaveText('3 members');
  const list = page.getByRole('list', { name: 'Members' });
  await expect(list.getByRole('listitem', { name: ada })).toContainText(label);
  await expect(list.getByRole('listitem', { name: bob })).toContainText('Other');
  await expect(list.getByRole('listitem', { name: dan })).toHaveCount(0);

  // Saved as a segment, listed to apply.
  const segments = page.getByRole('region', { name: 'Segments' });
  await segments.getByLabel('Segment name').fill(segment);
  await segments.getByRole('button', { name: 'Save as segment' }).click();
  await expect(segments.getByRole('listitem', { name: segment })).toBeVisible();
  expect(await seriousViolations(page), 'filtered list').toEqual([]);

  // The export carries the filter: the header row and the three members.
  const download = page.waitForEvent('download');
  await members.getByRole('button', { name: 'Export CSV' }).click();
  const csv = await readFile(await (await download).path(), 'utf8');
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  expect(lines[0]).toBe(CSV_COLUMNS.join(','));
  expect(
    lines
      .slice(1)
      .map((l) => l.split(',')[0])
      .sort(),
  ).toEqual([ada, bob, cy].sort());

  try {
    // An issue to the segment: its two members who get the newsletter, not Cy (turned it off) nor Dan (outside it).
    const line = `Hello to the imported members, ${stamp}.`;
    await sendToSegment(page, segment, subject, line, 2);
    expect((await mailedMessage(ada, subject)).text).toContain(line);
    await mailedMessage(bob, subject);
    expect(await mailboxRecipients(subject)).toEqual([ada, bob].sort());

    await readRevenueChart(page);
  } finally {
    // The sent issue leaves the public archive again (its copies go with it).
    await withSiteDb(async (db) => {
      await db.delete(newsletterIssues).where(eq(newsletterIssues.subject, subject));
      await db.delete(emails).where(eq(emails.subject, subject));
    });
  }
});

test('a visitor who came from a campaign and signed up shows its source on their admin card', async ({ page, browser }) => {
  const visitor = await browser.newPage();
  await visitor.setExtraHTTPHeaders(testClient());
  await visitor.goto('/?utm_source=e2e-news&utm_campaign=spring');
  // A later page of the visit does not replace the first page's source.
  await visitor.goto('/signup?utm_source=elsewhere');
  const email = uniqueEmail('campaign');
  const form = visitor.locator('main form[aria-label="Sign up"]');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign Up' }).click();
  await expect(visitor.getByRole('status').filter({ hasText: 'We sent a confirmation link' })).toBeVisible();
  await visitor.close();

  await signInToAdmin(page, DEMO_ADMIN);
  await page.getByRole('tab', { name: 'User Management' }).click();
  const filters = page.getByRole('search', { name: 'Filter members' });
  await filters.getByText('More filters').click();
  await filters.getByLabel(/^Sign-up source/).fill('e2e-news');
  await filters.getByRole('searchbox', { name: 'Search members' }).fill(email);
  await filters.getByRole('button', { name: 'Search', exact: true }).click();
  const card = page.getByRole('listitem', { name: email });
  await expect(card.getByTestId('member-signup')).toContainText('e2e-news / spring');
  await expect(card.getByTestId('member-signup')).not.toContainText('elsewhere');
});
