/**
 * The course viewer as a visitor (spec point 2 "Courses"): Overview first, the first lesson current,
 * every section expanded, accessible tabs, Previous/Next across section boundaries and disabled at
 * the ends, picking a lesson switches to the lesson tab, the URL names the lesson, and a visitor
 * meets the gate card in the lesson.
 */
import { expect, test } from '@playwright/test';
import type { PublicItem } from '#shared/content/registry.ts';
import { seriousViolations } from './axe.ts';
import { apiList } from './support.ts';

type Course = Extract<PublicItem, { type: 'course' }>;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('the course viewer: first lesson, open sections, tabs, Previous and Next across sections and at the ends', async ({
  page,
  request,
}) => {
  // A course a plan includes (a visitor on a free one is offered a free account instead: gated-content.writes.spec.ts).
  const course = (await apiList<Course>(request, 'courses')).find(
    (c) => c.accessLevel !== 'free' && c.sections.length >= 2 && c.sections[0]!.lessons.length >= 2,
  )!;
  const lessons = course.sections.flatMap((s) => s.lessons);
  const first = lessons[0]!;
  const last = lessons.at(-1)!;
  const boundary = course.sections[0]!.lessons.length; // the first lesson of section 2

  await page.goto(`/courses/${course.slug}`);
  const overviewTab = page.getByRole('tab', { name: 'Overview' });
  const lessonTab = page.getByRole('tab', { name: 'Current Lesson' });
  const curriculum = page.getByRole('region', { name: 'Curriculum' });
  const panel = page.getByRole('tabpanel', { name: 'Current Lesson' });
  const title = panel.getByTestId('lesson-title');
  const previous = panel.getByRole('button', { name: 'Previous Lesson' });
  const next = panel.getByRole('button', { name: 'Next Lesson' });

  await expect(overviewTab).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel', { name: 'Overview' })).toContainText(`Start with: ${first.title}`);
  for (const [i, section] of course.sections.entries()) {
    const toggle = curriculum.getByRole('button', { name: new RegExp(`^Section ${i + 1}\\. ${escape(section.title)}$`) });
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  }
  await expect(curriculum.locator('[aria-current="true"]')).toContainText(first.title);

  // Arrow keys move between the tabs.
  await overviewTab.focus();
  await page.keyboard.press('ArrowRight');
  await expect(lessonTab).toHaveAttribute('aria-selected', 'true');
  await expect(lessonTab).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(overviewTab).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('End');
  await expect(lessonTab).toHaveAttribute('aria-selected', 'true');

  await expect(title).toHaveText(first.title);
  await expect(panel).toContainText(`Section 1 · Lesson 1 of ${lessons.length}`);
  await expect(previous).toBeDisabled();
  await expect(next).toBeEnabled();
  // A visitor has no access: the gate, with Sign In back to this lesson.
  const gate = panel.getByTestId('gate-card');
  await expect(gate.getByRole('link', { name: 'Upgrade Now' })).toHaveAttribute('href', '/pricing');
  await expect(gate.getByRole('link', { name: 'Sign In' })).toHaveAttribute(
    'href',
    new RegExp(`^/signin\\?redirect=%2Fcourses%2F${course.slug}`),
  );
  expect(await seriousViolations(page)).toEqual([]);

  // Next walks through section 1 and on into section 2; Previous comes back across the boundary.
  for (let i = 1; i <= boundary; i++) {
    await next.click();
    await expect(title).toHaveText(lessons[i]!.title);
  }
  await expect(panel).toContainText(`Section 2 · Lesson ${boundary + 1} of ${lessons.length}`);
  await expect(curriculum.locator('[aria-current="true"]')).toContainText(lessons[boundary]!.title);
  await previous.click();
  await expect(title).toHaveText(lessons[boundary - 1]!.title);
  await expect(panel).toContainText(`Section 1 · Lesson ${boundary} of ${lessons.length}`);

  // Picking a lesson in the curriculum switches to the lesson tab; the last one has no Next.
  await overviewTab.click();
  await expect(panel).toBeHidden();
  await curriculum.getByRole('button', { name: last.title }).click();
  await expect(lessonTab).toHaveAttribute('aria-selected', 'true');
  await expect(title).toHaveText(last.title);
  await expect(next).toBeDisabled();
  await expect(previous).toBeEnabled();

  // The URL names the lesson, so a reload (or a shared link) opens it.
  await expect(page).toHaveURL(new RegExp(`/courses/${course.slug}\\?lesson=${last.id}$`));
  await page.reload();
  await expect(lessonTab).toHaveAttribute('aria-selected', 'true');
  await expect(title).toHaveText(last.title);

  // Sections collapse and expand.
  const firstSection = curriculum.getByRole('button', { name: new RegExp(`^Section 1\\. `) });
  await firstSection.click();
  await expect(firstSection).toHaveAttribute('aria-expanded', 'false');
  await expect(curriculum.getByRole('button', { name: first.title })).toBeHidden();
  await firstSection.click();
  await expect(curriculum.getByRole('button', { name: first.title })).toBeVisible();
});

test('the curriculum is in the server-rendered page for crawlers', async ({ request }) => {
  const course = (await apiList<Course>(request, 'courses'))[0]!;
  const html = await (await request.get(`/courses/${course.slug}`)).text();
  const text = html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
  for (const lesson of course.sections.flatMap((s) => s.lessons)) expect(text).toContain(lesson.title);
  expect(html).toContain('role="tablist"');
});

test('a visitor meets the article gate with Sign In back to the article, under the public preview', async ({ page }) => {
  await page.goto('/blog/chatbot-lead-qualification-design');
  const gate = page.getByTestId('gate-card');
  await expect(gate.getByRole('heading', { name: 'Subscriber Content' })).toBeVisible();
  await expect(gate.getByRole('link', { name: 'Sign In' })).toHaveAttribute(
    'href',
    '/signin?redirect=%2Fblog%2Fchatbot-lead-qualification-design',
  );
  await expect(page.getByTestId('article-preview')).toContainText('Start with the job, not the technology');
  await expect(page.getByText('Map intents from real conversations')).toHaveCount(0);
});

test('a visitor meets the download gate on tools and market items', async ({ page }) => {
  await page.goto('/tools/chatbot-conversation-script-kit');
  await expect(page.getByTestId('gate-card').getByRole('heading', { name: 'Premium Content' })).toBeVisible();
  await expect(page.getByTestId('gate-card')).toContainText('This download is available exclusively to premium members.');
  await page.goto('/market/brand-voice-worksheet');
  // A free item needs only an account (beyond the spec's 'Restricted Content… Upgrade Now').
  await expect(page.getByTestId('gate-card').getByRole('heading', { name: 'Free with an account' })).toBeVisible();
  await expect(page.getByTestId('gate-card').getByRole('link', { name: 'Upgrade Now' })).toHaveCount(0);
  await expect(page.getByTestId('price')).toHaveText('Free');
  // A free tool keeps the lead dialog for everyone.
  await page.goto('/tools/seo-audit-checklist');
  await page.getByRole('button', { name: 'Download Free' }).click();
  await expect(page.getByRole('dialog').getByRole('heading', { name: /^Download / })).toBeVisible();
});
