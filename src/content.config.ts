/**
 * MDX collections in content/, one per content type (named after its folder), validated at build
 * time with the same strict frontmatter schemas the server uses at run time (see
 * lib/content/registry.ts). Each field carries a description for authors (editors show it from the
 * generated JSON schema). CONTENT_DIR points the build at another folder (the scale benchmark uses this).
 */
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { CONTENT_REGISTRY, CONTENT_TYPES } from '#shared/content/registry.ts';
import { ServiceSchema } from '#shared/offerings.ts';

const root = process.env.CONTENT_DIR || './content';
const files = (folder: string) => glob({ base: `${root}/${folder}`, pattern: '**/[^_]*.{md,mdx}' });

const contentCollections = Object.fromEntries(
  CONTENT_TYPES.map((type) => {
    const { folder, frontmatter } = CONTENT_REGISTRY[type];
    return [folder, defineCollection({ loader: files(folder), schema: frontmatter })];
  }),
);

export const collections = {
  ...contentCollections,
  /** The consultancy's services (YAML, one file per service; the file name is the URL slug). */
  services: defineCollection({
    loader: glob({ base: `${root}/services`, pattern: '**/[^_]*.{yaml,yml}' }),
    schema: ServiceSchema,
  }),
};
