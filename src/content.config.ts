/**
 * MDX collections in content/, validated at build time with the same schemas the server uses at
 * run time. Each field carries a description for authors (editors show it from the generated JSON
 * schema). CONTENT_DIR points the build at another folder (the scale benchmark uses this).
 */
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import {
  BlogFrontmatterSchema,
  CourseFrontmatterSchema,
  MarketFrontmatterSchema,
  ToolFrontmatterSchema,
} from './lib/content/schema.ts';
import { ServiceSchema } from './lib/services.ts';

const root = process.env.CONTENT_DIR || './content';
const files = (folder: string) => glob({ base: `${root}/${folder}`, pattern: '**/[^_]*.{md,mdx}' });

export const collections = {
  blog: defineCollection({ loader: files('blog'), schema: BlogFrontmatterSchema }),
  courses: defineCollection({ loader: files('courses'), schema: CourseFrontmatterSchema }),
  tools: defineCollection({ loader: files('tools'), schema: ToolFrontmatterSchema }),
  market: defineCollection({ loader: files('market'), schema: MarketFrontmatterSchema }),
  /** The consultancy's services (YAML, one file per service; the file name is the URL slug). */
  services: defineCollection({
    loader: glob({ base: `${root}/services`, pattern: '**/[^_]*.{yaml,yml}' }),
    schema: ServiceSchema,
  }),
};
