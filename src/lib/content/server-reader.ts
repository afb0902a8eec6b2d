/**
 * Content access for page frontmatter (server side only). On-demand pages get the server's cached
 * reader through Astro.locals; prerendering uses the build's reader, loaded with a native import so
 * that server code is never bundled into the site.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PublicContentReader } from './reader.ts';
import type { ContentType, PublicItemOf } from './schema.ts';

/** The build's content reader (MDX plus database rows readable at build time). */
export async function getBuildReader(): Promise<BuildReader> {
  const url = pathToFileURL(path.resolve('functions/content/build-source.ts')).href;
  const mod = (await import(/* @vite-ignore */ url)) as { getBuildContent(): Promise<BuildReader> };
  return mod.getBuildContent();
}

/** The build's reader, which also tells which items come from git (see build-source.ts). */
export interface BuildReader extends PublicContentReader {
  fromGit<T extends ContentType>(type: T): Promise<PublicItemOf<T>[]>;
}

/** Where the dev server integration leaves its reader (see src/integrations/dev-api.ts). */
export const DEV_READER_KEY = Symbol.for('beacon.devContentReader');

/** The reader for this request: the server's when running, the build's otherwise. */
export async function getContentReader(locals: App.Locals): Promise<PublicContentReader> {
  const dev = (globalThis as Record<symbol, PublicContentReader | undefined>)[DEV_READER_KEY];
  return locals.content ?? dev ?? getBuildReader();
}
