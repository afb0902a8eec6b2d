/**
 * The events list and an event page in Chromium, as a visitor: upcoming events soonest first, then
 * past ones labelled (with "Recording available"), the list's tag filter; on an event page the start
 * in the event's zone and in the visitor's, and "Add to calendar" with three links, none carrying a
 * join URL; the registration area's room kept from the first paint. (Registration, the gate and the join
 * link are the events journey's: events.writes.spec.ts.)
 */
import { expect, test } from '@playwright/test';
import type { PublicItem } from '#shared/content/registry.ts';
import { hasEnded } from '#shared/events/schedule.ts';
import { apiList } from './support.ts';

type PublicEvent = Extract<PublicItem, { type: 'event' }>;
const ended = (e: PublicEvent) => hasEnded(e);

test('the events list shows upcoming events soonest first, then past ones with their recordings, and filters by tag', async ({
  page,
  request,
}) => {
  const events = await apiList<PublicEvent>(request, 'events');
  const past = events.filter(ended);
  expect(past.length, 'the sample content has a past event').toBeGreaterThan(0);
  expect(events.slice(-past.length), 'past events come last').toEqual(past);

  await page.goto('/events');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Webinars & Events');
  const cards = page.getByTestId('content-card');
  await expect(cards).toHaveCount(events.length);
  await expect(cards.getByRole('heading')).toHaveText(events.map((e) => e.title));
  for (const [i, event] of events.entries()) {
    const card = cards.nth(i);
    await expect(card.getByText('Past', { exact: true })).toHaveCount(ended(event) ? 1 : 0);
    await expect(card.getByText('Recording available')).toHaveCount(ended(event) && event.hasRecording ? 1 : 0);
    await expect(card.getByTestId('card-start')).toContainText(`(${event.timeZone})`);
  }

  const webinars = events.filter((e) => e.tags.includes('Webinar'));
  await page.getByRole('group', { name: 'Tag' }).getByRole('button', { name: 'Webinar', exact: true }).click();
  await expect(cards.getByRole('heading')).toHaveText(webinars.map((e) => e.title));
  await expect(page).toHaveURL(/[?&]tag=Webinar/);
});

test.describe('an event page', () => {
  test.use({ timezoneId: 'Asia/Tokyo' });

  test("shows the start in the event's zone and the visitor's, and Add to calendar without the join URL", async ({ page, request }) => {
    const events = await apiList<PublicEvent>(request, 'events');
    const event = events.find((e) => e.format === 'online' && e.accessLevel === 'premium' && !ended(e))!;
    const res = await page.goto(`/events/${event.slug}`);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(event.title);

    // Server-rendered in the event's own zone; the visitor's (Tokyo, no daylight saving) added by the page's script.
    await expect(page.getByTestId('event-start')).toHaveText(new RegExp(`, \\d\\d:\\d\\d [A-Z]{2,5} \\(${event.timeZone}\\)$`));
    const tokyo = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    await expect(page.getByText(/^Your time:/)).toContainText(`${tokyo.format(new Date(event.startsAt))} GMT+9 (Asia/Tokyo)`);

    const calendar = page.getByRole('list', { name: 'Add to calendar' });
    await expect(calendar.getByRole('link', { name: 'Calendar file (.ics)' })).toHaveAttribute('href', `/events/${event.slug}.ics`);
    const start = new Date(event.startsAt).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const google = new URL((await calendar.getByRole('link', { name: 'Google Calendar' }).getAttribute('href'))!);
    expect(google.searchParams.get('dates')).toMatch(new RegExp(`^${start.replace(/[-:]/g, '')}/\\d{8}T\\d{6}Z$`));
    expect(google.searchParams.get('details')).toContain(`/events/${event.slug}`);
    const outlook = new URL((await calendar.getByRole('link', { name: 'Outlook' }).getAttribute('href'))!);
    expect(outlook.searchParams.get('startdt')).toBe(start);
    expect(outlook.searchParams.get('subject')).toBe(event.title);

    // The page carries no meeting link, whoever looks: the join URL comes from the events API to registrants only.
    expect(await page.content()).not.toMatch(/meet\.beacon-events\.example|EVENT-JOIN-SENTINEL/);
    await expect(page.getByTestId('event-body')).toBeVisible();
  });

  for (const viewport of [
    { width: 412, height: 823 },
    { width: 1280, height: 800 },
  ])
    test(`keeps the registration area's room from the first paint at ${viewport.width}px: a visitor's prompt fills it exactly`, async ({
      page,
      request,
    }) => {
      await page.setViewportSize(viewport);
      const events = await apiList<PublicEvent>(request, 'events');
      const event = events.find((e) => e.format === 'online' && e.accessLevel === 'premium' && !ended(e))!;
      // The island's code held back: the page as it paints before the island runs.
      await page.route(/\/_astro\/EventRegistration\.[\w-]+\.js$/, (route) => route.abort());
      await page.goto(`/events/${event.slug}`);
      const area = page.getByTestId('event-body').locator('xpath=following-sibling::div[1]');
      const reserved = (await area.boundingBox())!.height;
      expect(reserved).toBeGreaterThan(100);
      await page.unroute(/\/_astro\/EventRegistration\.[\w-]+\.js$/);
      await page.reload();
      const prompt = page.getByTestId('event-registration');
      await expect(prompt.getByRole('link', { name: 'Sign in' })).toBeVisible();
      expect(Math.abs((await prompt.boundingBox())!.height - reserved)).toBeLessThanOrEqual(1);
      expect(Math.abs((await area.boundingBox())!.height - reserved)).toBeLessThanOrEqual(1);
    });
});
