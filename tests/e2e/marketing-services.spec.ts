/**
 * Services overview and every service page in Chromium: the spec's sections and texts, durations
 * by step position, working share links, Service JSON-LD, and the not-found page (404).
 */
import { expect, test } from '@playwright/test';
import { STEP_DURATIONS } from '#shared/offerings.ts';
import { jsonLd, SERVICES } from './marketing-support.ts';

test('the overview shows every service with its benefits, Learn More and the call to action', async ({ page }) => {
  await page.goto('/services');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Our Services');
  const cards = page.getByRole('region', { name: 'Services' }).getByRole('article');
  await expect(cards).toHaveCount(6);
  for (const [i, s] of SERVICES.entries()) {
    const card = cards.nth(i);
    await expect(card.getByRole('heading', { level: 2 })).toHaveText(s.title);
    await expect(card).toContainText(s.fullDescription);
    await expect(card.getByRole('heading', { name: 'Key Benefits' })).toBeVisible();
    for (const b of s.benefits) await expect(card.getByRole('listitem').filter({ hasText: b })).toHaveCount(1);
    await expect(card.getByRole('link', { name: /^Learn More/ })).toHaveAttribute('href', `/services/${s.id}`);
  }
  await expect(page.getByRole('heading', { name: 'Ready to Transform Your Digital Presence?' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Get Started Today' })).toHaveAttribute('href', '/contact');
});

for (const s of SERVICES) {
  test(`/services/${s.id} shows every section of the service page`, async ({ page }) => {
    const res = await page.goto(`/services/${s.id}`);
    expect(res?.status()).toBe(200);
    await expect(page).toHaveTitle(`${s.title} Services | Beacon Growth`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(s.title);
    await expect(page.getByText(s.fullDescription)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Request a Consultation' })).toHaveAttribute('href', '/contact');

    await expect(page.getByRole('heading', { name: `Why Choose Our ${s.title}` })).toBeVisible();
    const benefits = page.getByRole('region', { name: 'Core Benefits' }).getByRole('listitem');
    await expect(benefits).toHaveText(s.benefits);

    const results = page.getByRole('region', { name: 'Measurable Results' });
    await expect(results.getByRole('article')).toHaveCount(2);
    for (const c of s.caseStudies) {
      await expect(results.getByRole('heading', { name: c.title })).toBeVisible();
      await expect(results.getByText(c.description)).toBeVisible();
    }

    const steps = page.getByRole('region', { name: 'Implementation & Success Framework' }).getByRole('listitem');
    await expect(steps).toHaveCount(6);
    for (const [i, step] of s.process.entries()) {
      await expect(steps.nth(i).getByRole('heading')).toHaveText(`Step ${i + 1}: ${step}`);
      await expect(steps.nth(i).getByTestId('step-duration')).toHaveText(`Duration: ${STEP_DURATIONS[i]}`);
    }
    await expect(page.getByRole('region', { name: 'Success Metrics & Best Practices' }).getByRole('listitem')).toHaveCount(4);

    const start = page.getByRole('region', { name: 'Ready to Get Started?' });
    await expect(start.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact');
    await expect(start.getByRole('link', { name: 'View All Services' })).toHaveAttribute('href', '/services');

    const ld = (await jsonLd(page)).find((o) => o['@type'] === 'Service');
    expect(ld).toMatchObject({ name: s.title, description: s.fullDescription, provider: { name: 'Beacon Growth' } });
  });
}

test('share links share the page canonical URL on LinkedIn, X, Facebook and by email', async ({ page }) => {
  await page.goto('/services/seo-optimization');
  const canonical = (await page.locator('link[rel="canonical"]').getAttribute('href'))!;
  expect(canonical).toMatch(/\/services\/seo-optimization$/);
  const share = page.getByRole('region', { name: 'Share this service' });
  const href = async (name: RegExp) => (await share.getByRole('link', { name }).getAttribute('href'))!;
  const linkedIn = new URL(await href(/LinkedIn/));
  expect(linkedIn.origin + linkedIn.pathname).toBe('https://www.linkedin.com/sharing/share-offsite/');
  expect(linkedIn.searchParams.get('url')).toBe(canonical);
  const x = new URL(await href(/X \(Twitter\)/));
  expect(x.origin + x.pathname).toBe('https://x.com/intent/tweet');
  expect(x.searchParams.get('url')).toBe(canonical);
  expect(x.searchParams.get('text')).toContain('SEO Optimization');
  const facebook = new URL(await href(/Facebook/));
  expect(facebook.origin + facebook.pathname).toBe('https://www.facebook.com/sharer/sharer.php');
  expect(facebook.searchParams.get('u')).toBe(canonical);
  const mail = await href(/email/);
  expect(mail.startsWith('mailto:?subject=')).toBe(true);
  expect(decodeURIComponent(mail.split('&body=')[1]!)).toContain(canonical);
  await expect(share.getByRole('link')).toHaveCount(4);
});

test('an unknown service shows "Service not found" with status 404', async ({ page }) => {
  for (const path of ['/services/no-such-service', '/services/seo-optimization/extra']) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { name: 'Service not found' })).toBeVisible();
    await expect(page.getByText("Sorry, we couldn't find the service you're looking for.")).toBeVisible();
  }
  await page.getByRole('main').getByRole('link', { name: 'View All Services' }).click();
  await expect(page).toHaveURL(/\/services$/);
});
