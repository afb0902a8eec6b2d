/** Shared data for the marketing browser tests: the services as the content files define them. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { parse } from 'yaml';
import { ServiceSchema, sortServices, type Service } from '#shared/offerings.ts';

const dir = path.resolve(import.meta.dirname, '../../content/services');

/** The six services in menu order, read from content/services/*.yaml. */
export const SERVICES: Service[] = sortServices(
  readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => ({ ...ServiceSchema.parse(parse(readFileSync(path.join(dir, f), 'utf8'))), id: f.replace(/\.yaml$/, '') })),
);

/** Opens a page and waits until the home splash (if any) has left. */
export async function gotoReady(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator('#splash').waitFor({ state: 'detached' });
}

/** JSON-LD objects of the current page. */
export async function jsonLd(page: Page): Promise<Record<string, unknown>[]> {
  const texts = await page.locator('script[type="application/ld+json"]').allTextContents();
  return texts.map((t) => JSON.parse(t) as Record<string, unknown>);
}
