/**
 * Page weight budget of the marketing pages: JavaScript shipped before interaction, gzip, at most
 * 20 KB on home, services (overview and every service), about, FAQ, contact and the legal pages.
 * Deterministic: measured from the test build's bytes with scripts/bench/page-weight.ts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { kb, pageWeight } from '../../scripts/bench/page-weight.ts';

const BUDGET = 20 * 1024;
const PAGES = [
  '/',
  '/services',
  '/services/ai-automation',
  '/services/seo-optimization',
  '/services/content-strategy',
  '/services/website-management',
  '/services/social-media',
  '/services/chatbot-development',
  '/about',
  '/faq',
  '/contact',
  '/pricing',
  '/privacy-policy',
  '/terms-of-service',
];

describe('marketing page weight', () => {
  const client = path.join(inject('testEnv').distDir, 'client');
  const htmlFile = (page: string) => path.join(client, page, 'index.html');

  it.each(PAGES)('%s ships at most 20 KB of gzip JavaScript and no island', (page) => {
    expect(existsSync(htmlFile(page)), `${page} is prebuilt`).toBe(true);
    const weight = pageWeight(client, htmlFile(page));
    expect(weight.islands, `${page} islands`).toBe(0);
    expect(weight.gzipBytes, `${page}: ${kb(weight.gzipBytes)} (${weight.files.join(', ') || 'inline only'})`).toBeLessThanOrEqual(BUDGET);
    // The page's behaviour really ships: an empty measurement would pass any budget.
    expect(weight.gzipBytes, `${page} has its navigation script`).toBeGreaterThan(500);
  });
});
