/**
 * The events journey in Chromium (writes registrations, so it runs with the writing tests): a premium
 * member registers for the sample premium event with one click and finds its calendar file, and for
 * the in-person sample, which has no join button; on an
 * event starting in 10 minutes (made through the creator API), the join button appears only once the
 * page's clock passes the moment the link opens, and the account page lists the event with it (axe
 * finds nothing serious on either, the button's contrast included); a visitor is offered Sign in and
 * Sign up, and a free member meets the gate.
 */
import { expect, test } from '@playwright/test';
import type { WrittenAnswer } from '../support/answers.ts';
import { utcLocal } from '../support/fixtures.ts';
import { seriousViolations } from './axe.ts';
import { adminToken, setAccessLevel, signedInMember } from './members.ts';

const SAMPLE = '/events/premium-growth-strategy-workshop';

test('a premium member registers, finds the calendar file, and gets the join button only once the link opens', async ({ page }) => {
  const member = await signedInMember(page, 'events');
  await setAccessLevel(page.request, member.id, 'premium');

  // The sample premium event: Register in one click, then Cancel registration; no join button months ahead.
  await page.goto(SAMPLE);
  const area = page.getByTestId('event-registration');
  await expect(area).toContainText(/\d+ seats left/);
  await area.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('Registered', { exact: true })).toBeVisible();
  await expect(area).toContainText("You're registered.");
  await expect(area.getByRole('button', { name: 'Cancel registration' })).toBeVisible();
  await expect(area).toContainText('The join button appears here 15 minutes before the start');
  await expect(area.getByRole('link', { name: 'Join the event' })).toHaveCount(0);
  const ics = page.getByRole('list', { name: 'Add to calendar' }).getByRole('link', { name: 'Calendar file (.ics)' });
  const file = await page.request.get((await ics.getAttribute('href'))!);
  expect(file.headers()['content-type']).toBe('text/calendar; charset=utf-8');
  expect(await file.text()).toContain('UID:premium-growth-strategy-workshop@');

  // An in-person event has no join link: registered, the member is pointed at the address instead.
  await page.goto('/events/baltimore-members-meetup');
  await area.getByRole('button', { name: 'Register' }).click();
  await expect(area).toContainText("You're registered.");
  await expect(area).toContainText('See you there: the address is above.');
  await expect(area).not.toContainText('join button');

  // An event starting in 10 minutes: its link opened 5 minutes ago. The page's clock starts 6 minutes back.
  const created = await page.request.post('/api/content/events', {
    headers: { authorization: `Bearer ${await adminToken(page.request)}` },
    data: {
      title: `Live growth Q&A ${Date.now()}`,
      description: 'Half an hour of questions and answers with a consultant.',
      tags: ['Webinar'],
      accessLevel: 'premium',
      startsAt: utcLocal(10),
      timeZone: 'UTC',
      durationMinutes: 30,
      format: 'online',
      joinUrl: 'https://meet.example.com/live-growth-qa',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { item, path } = (await created.json()) as WrittenAnswer;
  const opensAt = Date.parse((item as { startsAt: string }).startsAt) - 15 * 60_000;
  await page.clock.install({ time: new Date(opensAt - 60_000) });
  await page.goto(path);
  await area.getByRole('button', { name: 'Register' }).click();
  await expect(area).toContainText("You're registered.");
  await expect(area).toContainText('The join button appears here 15 minutes before the start');
  await expect(area.getByRole('link', { name: 'Join the event' })).toHaveCount(0);
  await page.clock.fastForward('01:05');
  await expect(area.getByRole('link', { name: 'Join the event' })).toHaveAttribute('href', 'https://meet.example.com/live-growth-qa');
  // White on the join button's green passes AA (white on #009966 was 3.65:1). axe looks at the
  // registration area only: a whole-page scan made this long journey outlast its timeout on a busy machine.
  expect(await seriousViolations(page, '[data-testid="event-registration"]')).toEqual([]);

  // The account page lists it under "Your upcoming events", with the join button.
  await page.goto('/account');
  const upcoming = page.getByRole('region', { name: 'Your upcoming events' });
  await expect(upcoming.getByRole('link', { name: item.title })).toHaveAttribute('href', path);
  await expect(upcoming.getByRole('link', { name: 'Join the event' })).toHaveAttribute('href', 'https://meet.example.com/live-growth-qa');
  expect(await seriousViolations(page, 'section[aria-labelledby="upcoming-events-heading"]')).toEqual([]);
});

test('a visitor is offered Sign in and Sign up back to the event, and a free member the gate with Upgrade Now', async ({ page }) => {
  await page.goto(SAMPLE);
  const visitor = page.getByTestId('event-registration');
  await expect(visitor.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', `/signin?redirect=${encodeURIComponent(SAMPLE)}`);
  await expect(visitor.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', `/signup?redirect=${encodeURIComponent(SAMPLE)}`);

  await signedInMember(page, 'events-free');
  await page.goto(SAMPLE);
  const gate = page.getByTestId('gate-card');
  await expect(gate.getByRole('heading', { name: 'Premium Content' })).toBeVisible();
  await expect(gate).toContainText('This event is available exclusively to premium members.');
  await expect(gate.getByRole('link', { name: 'Upgrade Now' })).toHaveAttribute('href', '/pricing');
  await expect(page.getByRole('button', { name: 'Register' })).toHaveCount(0);
});
