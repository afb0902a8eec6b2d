/** Helpers for the browser tests: the public API as the browser sees it, and database writes. */
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { createMdxSource } from '../../functions/content/mdx-source.ts';
import { createContentService, type ContentService } from '../../functions/content/service.ts';
import { openDatabase, type Database } from '../../functions/platform/db/client.ts';
import type { PublicItem } from '#shared/content/registry.ts';
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
