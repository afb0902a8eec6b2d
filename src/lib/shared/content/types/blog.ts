/** Blog articles: the MDX body (or the creator tools' Markdown) is the gated article. */
import { z } from 'zod';
import { SITE } from '../../site.ts';
import { defineContentType } from '../content-type.ts';
import { MAX_BODY_CHARS } from '../markdown.ts';
import { DateOnlySchema, ONE_LINE, ONE_LINE_MESSAGE, toDateOnly, staffBody } from '../schema.ts';

export const blog = defineContentType({
  type: 'blog',
  folder: 'blog',
  apiSegment: 'blogs',
  path: '/blog',
  labels: {
    singular: 'blog',
    plural: 'blogs',
    listTitle: 'Blog',
    listIntro: 'Practical insights on SEO, automation, content and growth from our consultants.',
    loadError: 'Failed to load blog articles.',
    emptyAll: 'No blog articles found.',
    emptyFiltered: 'No articles match your search criteria.',
    searchPlaceholder: 'Search articles…',
    name: 'Blog Post',
    itemLabel: 'Article',
  },
  filters: ['search', 'tag'],
  newestFirst: 'publishedDate',
  frontmatter: {
    publishedDate: z.coerce.date().describe('Publication date (YYYY-MM-DD).'),
    author: z.string().trim().min(1).max(120).regex(ONE_LINE, ONE_LINE_MESSAGE).optional().describe('Byline; defaults to the team name.'),
  },
  input: {
    publishedDate: z.coerce.date().optional(),
    content: staffBody(MAX_BODY_CHARS).default(''),
  },
  fields: {
    publishedDate: DateOnlySchema,
    /** Rows keep no author when none was given, so the byline follows the team name. */
    author: z.string().default(SITE.teamName),
    content: z.string(),
    /** MDX from git, or Markdown written in the creator tools. */
    contentFormat: z.enum(['mdx', 'markdown']).default('markdown'),
  },
  publicFields: {
    publishedDate: DateOnlySchema,
    author: z.string(),
    /** The author's public preview as sanitised HTML (added by the server's projection), when marked. */
    previewHtml: z.string().optional(),
  },
  gated: ['content'],
  createFields: ['content'],
  drafting: {
    title: '{subject}: A Practical Guide',
    description: 'A practical look at {topic} for small businesses: why it matters, the steps that work and how to measure the results.',
    outline: 'guide',
    fallbackTag: 'Small Business',
  },
  fromFrontmatter: (fm, body) => ({
    publishedDate: toDateOnly(fm.publishedDate),
    author: fm.author,
    content: body,
    contentFormat: 'mdx' as const,
  }),
  fromInput: (input, now) => ({
    publishedDate: toDateOnly(input.publishedDate ?? now),
    author: input.author,
    content: input.content,
    contentFormat: 'markdown' as const,
  }),
});
