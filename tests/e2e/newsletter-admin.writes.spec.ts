/**
 * The admin dashboard's Newsletter tab in the browser (writes issues and mail, so it runs with the
 * writing tests): an editor, who sees no other tab, writes an issue, previews it as each level (the
 * premium part only in the premium copy), sends a test to themself (it lands in the outbox, cut at
 * the level asked for), schedules it in their own time zone (the list says when, in that zone) and
 * cancels the schedule; before sending, each audience shows how many it would reach (the server's
 * count, the send's own rules) and Free members, who get it only once they ask, are said to reach
 * nobody; a free member gets no Newsletter tab and the API refuses them.
 */
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { expect, test, type Page } from '@playwright/test';
import { and, eq } from 'drizzle-orm';
import { utcInstant } from '#shared/time.ts';
import { emails } from '../../functions/email/tables.ts';
import type { AudienceReach } from '../../functions/newsletter/issues/audience.ts';
import { newsletterIssues } from '../../functions/newsletter/tables.ts';
import { recipientsText } from '../../src/components/admin/newsletter-format.ts';
import { seriousViolations } from './axe.ts';
import { signedInMember } from './members.ts';
import { signInToAdmin, toastTitled, withSiteDb } from './support.ts';

const EDITOR = 'editor@demo.beacongrowth.co';
const ZONE = 'America/New_York';
const PUBLIC_LINE = 'Everyone reads this opening about search trends.';
const PREMIUM_LINE = 'Only premium readers see the full keyword playbook.';

test.use({ timezoneId: ZONE });

test('an editor writes an issue, previews it as each level, tests it, schedules it in their zone and cancels the schedule', async ({
  page,
}) => {
  const subject = `Search trends ${Date.now()}`;
  // Tomorrow at 09:30 on the editor's clock in New York.
  const day = format(new TZDate(Date.now() + 86_400_000, ZONE), 'yyyy-MM-dd');
  const local = `${day}T09:30`;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const shown = `${format(new Date(y, m - 1, d, 9, 30), 'MMMM d, yyyy, HH:mm')} (${ZONE})`;
  try {
    await signInToAdmin(page, EDITOR);
    // An editor has the Newsletter, Moderation and Support tabs and nothing else (those tabs are admins').
    await expect(page.getByRole('tab')).toHaveText(['Newsletter', 'Moderation', 'Support']);
    await page.getByRole('button', { name: 'New issue' }).click();

    const form = page.getByRole('form', { name: 'Newsletter issue' });
    await form.getByRole('button', { name: 'Save draft' }).click();
    await expect(form.getByText('subject is required')).toBeVisible();
    await form.getByLabel('Subject').fill(subject);
    await expect(form.getByText('subject is required')).toHaveCount(0);
    await form.getByLabel('Preview text').fill('What moved in search this month');
    await form.getByLabel('Body').fill(`${PUBLIC_LINE}\n\n<!-- preview -->\n\n${PREMIUM_LINE}`);
    await form.getByLabel('Access Level').selectOption('premium');
    await form.getByRole('checkbox', { name: 'Free members' }).check();
    // (Before any preview: axe cannot enter the preview's script-less frame.)
    expect(await seriousViolations(page)).toEqual([]);

    // Each level's copy: the premium part only in the premium one, an upgrade call in the others.
    for (const level of ['Visitor', 'Free', 'Subscriber', 'Premium']) {
      await page.getByRole('group', { name: 'Preview as' }).getByRole('button', { name: level, exact: true }).click();
      const copy = page.frameLocator(`iframe[title="Preview as ${level}"]`).locator('body');
      await expect(copy).toContainText(PUBLIC_LINE);
      const text = page.getByTestId('preview-text');
      await expect(text).toContainText(PUBLIC_LINE);
      if (level === 'Premium') {
        await expect(copy).toContainText(PREMIUM_LINE);
        await expect(text).toContainText(PREMIUM_LINE);
      } else {
        await expect(copy).not.toContainText(PREMIUM_LINE);
        await expect(text).not.toContainText(PREMIUM_LINE);
      }
    }
    await expect(page.getByTestId('issue-status')).toHaveText('Draft');

    // A test copy to the editor, cut at the level asked for.
    await page.getByLabel('Test copy level').selectOption('subscriber');
    await page.getByRole('button', { name: 'Send test to me' }).click();
    await expect(toastTitled(page, 'Test sent')).toContainText(EDITOR);
    const tests = await withSiteDb((db) =>
      db
        .select()
        .from(emails)
        .where(and(eq(emails.to, EDITOR), eq(emails.subject, `[Test] ${subject}`))),
    );
    expect(tests).toHaveLength(1);
    expect(tests[0]!.bodyText).toContain(PUBLIC_LINE);
    expect(tests[0]!.bodyText).not.toContain(PREMIUM_LINE);

    // Scheduled on the editor's clock; the server keeps the instant that names.
    await page.getByLabel(`Send at (${ZONE})`).fill(local);
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await expect(toastTitled(page, 'Scheduled')).toBeVisible();
    await expect(page.getByTestId('editor-schedule')).toHaveText(`Scheduled for ${shown}`);
    const [row] = await withSiteDb((db) => db.select().from(newsletterIssues).where(eq(newsletterIssues.subject, subject)));
    expect(row!.sendAt?.toISOString()).toBe(utcInstant(local, ZONE));
    expect(row!.timeZone).toBe(ZONE);

    await page.getByRole('button', { name: 'Back to issues' }).click();
    const listed = page.getByRole('listitem', { name: subject });
    await expect(listed.getByTestId('issue-status')).toHaveText('Scheduled');
    await expect(listed.getByTestId('issue-when')).toHaveText(`Scheduled for ${shown}`);
    await expect(listed.getByTestId('issue-meta')).toHaveText(
      'To Newsletter subscribers, Free members, Subscribers and Premium members · Premium level',
    );

    await listed.getByRole('button', { name: subject }).click();
    await page.getByRole('button', { name: 'Cancel schedule' }).click();
    await expect(toastTitled(page, 'Schedule cancelled')).toBeVisible();
    await expect(page.getByTestId('issue-status')).toHaveText('Draft');
    await page.getByRole('button', { name: 'Back to issues' }).click();
    await expect(listed.getByTestId('issue-status')).toHaveText('Draft');
    await expect(listed.getByTestId('issue-when')).toHaveCount(0);
  } finally {
    await withSiteDb(async (db) => {
      await db.delete(newsletterIssues).where(eq(newsletterIssues.subject, subject));
      await db.delete(emails).where(eq(emails.subject, `[Test] ${subject}`));
    });
  }
});

/** The counts the server answers the Newsletter tab for this choice of audiences (comma-separated, in the form's order). */
async function reachAnswered(page: Page, selected: string, act: () => Promise<void>): Promise<AudienceReach> {
  const answer = page.waitForResponse((res) => {
    const url = new URL(res.url());
    return url.pathname === '/api/admin/newsletter/audiences' && url.searchParams.get('selected') === selected;
  });
  await act();
  const res = await answer;
  expect(res.status()).toBe(200);
  return (await res.json()) as AudienceReach;
}

test('the audience choice shows how many each audience would reach, and that Free members reach nobody until they ask', async ({
  page,
}) => {
  await signInToAdmin(page, EDITOR);
  const form = page.getByRole('form', { name: 'Newsletter issue' });
  // A new issue starts with the list, Subscribers and Premium members chosen.
  const reach = await reachAnswered(page, 'newsletter,subscriber,premium', () => page.getByRole('button', { name: 'New issue' }).click());
  // Free members get the newsletter only once they turn it on (no test leaves one on); the demo's premium members are readers.
  expect(reach.recipients.free).toBe(0);
  expect(reach.recipients.premium).toBeGreaterThan(0);
  for (const audience of ['newsletter', 'free', 'subscriber', 'premium'] as const)
    await expect(form.getByTestId(`reach-${audience}`)).toHaveText(`(${recipientsText(reach.recipients[audience])})`);
  await expect(form.getByTestId('audience-total')).toHaveText(`This issue would go to ${recipientsText(reach.selected)} now.`);
  const freeHint = form.getByText(
    'Free members reach nobody now. Free members get the newsletter only once they turn it on in their account settings.',
  );
  await expect(freeHint).toHaveCount(0);

  // Only Free members: nobody, and why.
  await reachAnswered(page, 'newsletter,free,subscriber,premium', () => form.getByRole('checkbox', { name: 'Free members' }).check());
  for (const other of ['Newsletter subscribers', 'Subscribers', 'Premium members'])
    await form.getByRole('checkbox', { name: other, exact: true }).uncheck();
  await expect(form.getByTestId('audience-total')).toHaveText('Nobody would receive this issue now.');
  await expect(freeHint).toBeVisible();

  // Adding Premium members: their count, and Free members still reach nobody.
  const withPremium = await reachAnswered(page, 'free,premium', () =>
    form.getByRole('checkbox', { name: 'Premium members', exact: true }).check(),
  );
  expect(withPremium.selected).toBe(withPremium.recipients.premium);
  await expect(form.getByTestId('audience-total')).toHaveText(`This issue would go to ${recipientsText(withPremium.selected)} now.`);
  await expect(freeHint).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('a free member gets no Newsletter tab, and the newsletter API refuses them', async ({ page }) => {
  await signedInMember(page, 'newsletter-not-staff');
  await page.goto('/admin');
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByRole('tab', { name: 'Newsletter' })).toHaveCount(0);
  const token = await page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => /^sb-.+-auth-token$/.test(k))!;
    return (JSON.parse(localStorage.getItem(key)!) as { access_token: string }).access_token;
  });
  const headers = { authorization: `Bearer ${token}` };
  expect((await page.request.get('/api/admin/newsletter/issues', { headers })).status()).toBe(403);
  const create = await page.request.post('/api/admin/newsletter/issues', {
    headers,
    data: { subject: 'Not mine', previewText: '', body: 'Hello', accessLevel: 'free', audience: ['newsletter'] },
  });
  expect(create.status()).toBe(403);
});
