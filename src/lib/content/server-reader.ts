/**
 * Content access for page frontmatter (server side only). On-demand pages get the server's cached
 * reader through Astro.locals; prerendering uses the build's reader, loaded with a native import so
 * that server code is never bundled into the site.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PublicContentReader } from './reader.ts';

/** The build's content reader (MDX plus database rows readable at build time). */
export async function getBuildReader(): Promise<PublicContentReader> {
  const url = pathToFileURL(path.resolve('functions/content/build-source.ts')).href;
  const mod = (await import(/* @vite-ignore */ url)) as { getBuildContent(): Promise<PublicContentReader> };
  return mod.getBuildContent();
}

/** Where the dev server integration leaves its reader (see src/integrations/dev-api.ts). */
export const DEV_READER_KEY = Symbol.for('beacon.devContentReader');

/** The reader for this request: the server's when running, the build's otherwise. */
export async function getContentReader(locals: App.Locals): Promise<PublicContentReader> {
  const dev = (globalThis as Record<symbol, PublicContentReader | undefined>)[DEV_READER_KEY];
  return locals.content ?? dev ?? getBuildReader();
}
