/**
 * Course progress for members (beyond the spec; writes progress, so it runs with the writing tests):
 * lesson content for a member with access, Mark as complete surviving a reload, resuming at the last
 * lesson, and the account page's progress card and private feed link.
 */
import { expect, test } from '@playwright/test';
import type { PublicItem } from '#shared/content/registry.ts';
import { seriousViolations } from './axe.ts';
import { signedInMember } from './members.ts';
import { apiList } from './support.ts';

type Course = Extract<PublicItem, { type: 'course' }>;

test('progress survives a reload, the viewer resumes at the last lesson, and the account page shows it', async ({ page }) => {
  const course = (await apiList<Course>(page.request, 'courses')).find(
    (c) => c.accessLevel === 'free' && c.sections.flatMap((s) => s.lessons).length >= 3,
  )!;
  const lessons = course.sections.flatMap((s) => s.lessons);
  await signedInMember(page, 'progress');

  await page.goto(`/courses/${course.slug}`);
  const lessonTab = page.getByRole('tab', { name: 'Current Lesson' });
  const panel = page.getByRole('tabpanel', { name: 'Current Lesson' });
  const complete = panel.getByRole('checkbox', { name: 'Mark as complete' });
  const curriculum = page.getByRole('region', { name: 'Curriculum' });
  await expect(page.getByTestId('course-progress')).toHaveText(`0 of ${lessons.length} lessons complete`);

  await lessonTab.click();
  await expect(panel.getByTestId('lesson-content')).toBeVisible(); // a member with access reads the lesson
  await expect(complete).not.toBeChecked();
  await complete.check();
  await expect(page.getByTestId('course-progress')).toHaveText(`1 of ${lessons.length} lessons complete`);
  await expect(curriculum.getByRole('button', { name: `${lessons[0]!.title} (completed)` })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // Move on: the URL and the server both remember the lesson.
  await panel.getByRole('button', { name: 'Next Lesson' }).click();
  await expect(panel.getByTestId('lesson-title')).toHaveText(lessons[1]!.title);
  await expect(panel.getByTestId('lesson-content')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`\\?lesson=${lessons[1]!.id}$`));

  await page.reload();
  await expect(lessonTab).toHaveAttribute('aria-selected', 'true');
  await expect(panel.getByTestId('lesson-title')).toHaveText(lessons[1]!.title);
  await expect(page.getByTestId('course-progress')).toHaveText(`1 of ${lessons.length} lessons complete`);
  await panel.getByRole('button', { name: 'Previous Lesson' }).click();
  await expect(complete).toBeChecked();

  // Back to lesson 2, then a fresh visit without ?lesson= resumes there, once the server has it: visits
  // are saved in the background, one at a time in order (the reload's own visit of lesson 2 may still
  // be ahead of lesson 1's in the queue, so the server's last lesson is what is waited for).
  await panel.getByRole('button', { name: 'Next Lesson' }).click();
  await expect(panel.getByTestId('lesson-content')).toBeVisible();
  const lastLesson = () =>
    page.evaluate(async (url) => {
      const key = Object.keys(localStorage).find((k) => /^sb-.+-auth-token$/.test(k))!;
      const { access_token: token } = JSON.parse(localStorage.getItem(key)!) as { access_token: string };
      const answer = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      return ((await answer.json()) as { lastLessonId: string | null }).lastLessonId;
    }, `/api/content/courses/${course.slug}/progress`);
  await expect.poll(lastLesson).toBe(lessons[1]!.id);
  await page.goto(`/courses/${course.slug}`);
  const overview = page.getByRole('tabpanel', { name: 'Overview' });
  await expect(overview).toContainText(`Continue where you left off: ${lessons[1]!.title}`);
  await expect(curriculum.locator('[aria-current="true"]')).toContainText(lessons[1]!.title);
  await overview.getByRole('button', { name: 'Continue Lesson' }).click();
  await expect(panel.getByTestId('lesson-title')).toHaveText(lessons[1]!.title);

  // Unmarking works too.
  await panel.getByRole('button', { name: 'Previous Lesson' }).click();
  await complete.uncheck();
  await expect(page.getByTestId('course-progress')).toHaveText(`0 of ${lessons.length} lessons complete`);
  const marked = page.waitForResponse(
    (r) =>
      r.request().method() === 'PUT' &&
      r.url().includes(`/courses/${course.slug}/progress`) &&
      (r.request().postData() ?? '').includes('"completed":true'),
  );
  await complete.check();
  expect((await marked).ok()).toBe(true);

  // The account page lists the course with its progress (saved: the mark above was answered).
  await page.goto('/account');
  const card = page.getByRole('region', { name: 'Course Progress' });
  await expect(card.getByRole('link', { name: course.title })).toHaveAttribute('href', `/courses/${course.slug}`);
  await expect(card).toContainText(`1 of ${lessons.length} lessons complete`);
  expect(await seriousViolations(page)).toEqual([]);
});

test('the account page offers a private feed link that can be reset', async ({ page }) => {
  await signedInMember(page, 'feed');
  await page.goto('/account');
  await page.getByRole('tab', { name: 'Settings' }).click();
  const card = page.getByRole('region', { name: 'Private RSS feed' });
  const input = card.getByLabel('Your feed link');
  await expect(input).toHaveValue(/\/feeds\/.+\/rss\.xml$/);
  const before = await input.inputValue();
  expect((await page.request.get(before)).status()).toBe(200);

  await card.getByRole('button', { name: 'Reset link' }).click();
  await expect(input).not.toHaveValue(before);
  const after = await input.inputValue();
  expect((await page.request.get(after)).status()).toBe(200);
  expect((await page.request.get(before)).status()).toBe(404);
  await expect(card).toContainText('the old one stops working');
  expect(await seriousViolations(page)).toEqual([]);
});
