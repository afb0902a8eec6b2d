/**
 * Server data for page frontmatter and endpoints, the one way pages reach it: `serverContext(locals)`.
 * At run time the server (functions/platform/site/handler.ts) and the dev server (src/integrations/dev-api.ts)
 * build a context per request and hand it to Astro as `locals.server`; while prerendering there is no
 * request, and the build's context is used. Server side only: never import from an island.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuildReader, PublicContentReader } from '#shared/content/reader.ts';
import type { NewsletterArchiveReader } from '#shared/newsletter.ts';
import type { CommunityPageReader } from '../../../functions/community/pages.ts';

/** A deploy preview as /preview shows it (present only in preview mode). */
export interface PreviewContext {
  branch: string;
  commit?: string | undefined;
  /** The branch's content changes against its base (computed from git before the build). */
  base: string;
  changes: { status: 'added' | 'changed' | 'removed'; kind: string; slug: string; title: string; path: string; file: string }[];
  /** The demo accounts a reviewer may view the site as (the password is the demo one, public in the README). */
  accounts: { email: string; label: string }[];
  password: string;
}

/** What a page may read on the server for one request. The viewer joins it with accounts. */
export interface ServerContext {
  /** Public content (the server's cache; the build's reader while prerendering). */
  content: PublicContentReader;
  /** The run-time SITE_URL (absent while prerendering: the build's `site`, which the server replaces as it serves). */
  siteUrl?: string;
  /** The newsletter's web archive (sent issues); absent while prerendering, where no page reads it. */
  newsletter?: NewsletterArchiveReader;
  /** What a visitor may read of the community (categories, public threads); absent while prerendering. */
  community?: CommunityPageReader;
  /** Whether payments run in test mode (the account page's notice is in its first paint); absent while prerendering. */
  paymentMode?: 'test' | 'live';
  /** Set in preview mode only (PREVIEW_OF). */
  preview?: PreviewContext;
}

/** The build's content reader, loaded with a native import so that server code is never bundled into the site. */
export async function getBuildReader(): Promise<BuildReader> {
  const url = pathToFileURL(path.resolve('functions/content/build-source.ts')).href;
  const mod = (await import(/* @vite-ignore */ url)) as typeof import('../../../functions/content/build-source.ts');
  return mod.getBuildContent();
}

/** This request's server context: the server's when running, the build's while prerendering. */
export async function serverContext(locals: App.Locals): Promise<ServerContext> {
  return locals.server ?? { content: await getBuildReader() };
}

/**
 * The origin every absolute URL of a page starts with (canonical, Open Graph, JSON-LD, feeds,
 * sitemap): the server's run-time SITE_URL when rendering on request, the build's `site` while
 * prerendering (the server puts its own origin in its place when it serves the file).
 */
export function siteOrigin({ locals, site }: { locals: App.Locals; site: URL | undefined }): URL {
  const origin = locals.server?.siteUrl ?? site?.href;
  if (!origin) throw new Error('No site origin: set `site` in astro.config.mjs.');
  return new URL(origin);
}
