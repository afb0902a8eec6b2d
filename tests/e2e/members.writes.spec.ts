/**
 * The members as a business list in the browser (issue 35): an admin imports a small members file
 * (the dry run shows the bad row, then the good ones are imported), filters by a label the file
 * carried, saves the filter as a segment and exports the filtered members as CSV; and a visitor who
 * landed from a campaign (`?utm_source=`) and then signed up shows that source on their admin card.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { CSV_COLUMNS } from '#shared/members.ts';
import { seriousViolations } from './axe.ts';
import { DEMO_ADMIN, PASSWORD, testClient, uniqueEmail } from './members.ts';
import { signInToAdmin } from './support.ts';

test('an admin imports a members file, filters by its label, saves a segment and exports the list', async ({ page }) => {
  test.setTimeout(60_000);
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const label = `E2E import ${stamp}`;
  const [ada, bob] = [`ada.${stamp}@import.example.com`, `bob.${stamp}@import.example.com`];
  const file = [
    'email,name,labels',
    `${ada},Ada Import,${label}`,
    `not-an-address,Bad Row,${label}`,
    `${bob},Bob Import,${label};Other`,
  ].join('\n');

  await signInToAdmin(page, DEMO_ADMIN);
  await page.getByRole('tab', { name: 'User Management' }).click();
  const members = page.getByRole('region', { name: 'Members file' });
  await members.getByLabel('CSV file to import').setInputFiles({ name: 'members.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
  await members.getByRole('button', { name: 'Import CSV' }).click();
  // The dry run: three rows read, the bad one's problem in the table, nothing written yet.
  await expect(members.getByTestId('members-file-status')).toHaveText('3 rows read; 1 problem found.');
  const problems = members.getByRole('table', { name: 'Problems the dry run found' });
  await expect(problems.getByRole('row')).toHaveCount(2);
  await expect(problems.getByRole('row').nth(1)).toContainText(/^3.*email/);
  expect(await seriousViolations(page), 'dry run').toEqual([]);
  await members.getByRole('button', { name: 'Import 2 members' }).click();
  await expect(members.getByTestId('members-file-status')).toHaveText('Imported: 2 created, 0 updated, 1 row left out.');
  await expect(members.getByRole('table', { name: 'Rows left out of the import' })).toContainText('email');

  // Filter by the file's label: exactly its two members.
  const filters = page.getByRole('search', { name: 'Filter members' });
  await filters.getByText('More filters').click();
  await expect(filters.getByLabel('Label', { exact: true }).locator('option', { hasText: label })).toHaveCount(1);
  await filters.getByLabel('Label', { exact: true }).selectOption(label);
  await filters.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByTestId('member-count')).toHaveText('2 members');
  const list = page.getByRole('list', { name: 'Members' });
  await expect(list.getByRole('listitem', { name: ada })).toContainText(label);
  await expect(list.getByRole('listitem', { name: bob })).toContainText('Other');

  // Saved as a segment, listed to apply.
  const segments = page.getByRole('region', { name: 'Segments' });
  await segments.getByLabel('Segment name').fill(`Imported ${stamp}`);
  await segments.getByRole('button', { name: 'Save as segment' }).click();
  await expect(segments.getByRole('listitem', { name: `Imported ${stamp}` })).toBeVisible();
  expect(await seriousViolations(page), 'filtered list').toEqual([]);

  // The export carries the filter: the header row and the two members.
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
  ).toEqual([ada, bob].sort());
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
