/** Helpers for the browser tests: the public API as the browser sees it, and database writes. */
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { createMdxSource } from '../../functions/content/mdx-source.ts';
import { createContentService, type ContentService } from '../../functions/content/service.ts';
import { openDatabase, type Database } from '../../functions/platform/db/client.ts';
import type { PublicItem } from '#shared/content/registry.ts';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import { quietLogger } from '../support/fixtures.ts';

export async function apiList<T extends PublicItem = PublicItem>(request: APIRequestContext, segment: string): Promise<T[]> {
  const res = await request.get(`/api/public/${segment}`);
  if (!res.ok()) throw new Error(`GET /api/public/${segment}: ${res.status()}`);
  return (await res.json()) as T[];
}

/** The content service on the site database, as another server instance would write. */
export async function siteContent(): Promise<{ service: ContentService; close(): Promise<void> }> {
  const url = process.env.TEST_SITE_DB_URL;
  if (!url) throw new Error('TEST_SITE_DB_URL is not set (the global set-up exports it)');
  const database: Database = await openDatabase({ kind: 'postgres', url, poolSize: 2 }, quietLogger());
  const mdx = await createMdxSource(path.resolve(import.meta.dirname, '../../content'));
  return { service: createContentService({ db: database.db, mdx, logger: quietLogger() }), close: () => database.close() };
}

/** The toast with this title in the site's toast region. */
export const toastTitled = (page: Page, title: string) => page.locator('#toast-region [data-toast]').filter({ hasText: title });

/** Runs `run` against the test site's database (the writing tests' Postgres). */
export async function withSiteDb<T>(run: (db: Database['db']) => Promise<T>): Promise<T> {
  const database = await openDatabase({ kind: 'postgres', url: process.env.TEST_SITE_DB_URL!, poolSize: 1 }, quietLogger());
  try {
    return await run(database.db);
  } finally {
    await database.close();
  }
}

/** Signs in through the form with a demo account and lands on the admin dashboard. */
export async function signInToAdmin(page: Page, email: string): Promise<void> {
  await page.goto('/signin?redirect=%2Fadmin');
  const form = page.locator('main form[aria-label="Sign in"]');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(DEMO_PASSWORD);
  await form.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => url.pathname === '/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
}
