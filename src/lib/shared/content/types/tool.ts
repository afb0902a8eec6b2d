/** Free tools and members' tools: the download file is gated; the optional online link is public. */
import { z } from 'zod';
import { defineContentType } from '../content-type.ts';
import { DateOnlySchema, ExternalLinkSchema, FileRefSchema, toDateOnly } from '../schema.ts';

export const tool = defineContentType({
  type: 'tool',
  folder: 'tools',
  apiSegment: 'tools',
  path: '/tools',
  labels: {
    singular: 'tool',
    plural: 'tools',
    listTitle: 'Free Tools',
    listIntro: 'Templates, checklists and calculators we use with clients, free to download.',
    loadError: 'Failed to load tools.',
    emptyAll: 'No tools found.',
    emptyFiltered: 'No tools found.',
    searchPlaceholder: 'Search tools…',
    name: 'Tool',
    itemLabel: 'Tool',
  },
  filters: [],
  newestFirst: 'updatedAt',
  frontmatter: {
    downloadUrl: FileRefSchema.describe('The file a visitor receives. Gated: never shown publicly.'),
    externalLink: ExternalLinkSchema.optional().describe('Optional link to an online version.'),
    updatedAt: z.coerce.date().describe('Date of the last update (YYYY-MM-DD).'),
  },
  input: {
    downloadUrl: FileRefSchema.optional(),
    updatedAt: z.coerce.date().optional(),
  },
  fields: {
    updatedAt: DateOnlySchema,
    downloadUrl: FileRefSchema.optional(),
    externalLink: z.string().optional(),
  },
  publicFields: {
    updatedAt: DateOnlySchema,
    externalLink: z.string().optional(),
  },
  gated: ['downloadUrl'],
  createFields: ['downloadUrl', 'externalLink'],
  download: { leadWhenFree: true },
  drafting: {
    title: '{subject} Toolkit',
    description: 'A ready-to-use toolkit for {topic}: what it does, how to set it up and how to get the most from it.',
    outline: 'toolkit',
    fallbackTag: 'Small Business',
  },
  fromFrontmatter: (fm) => ({
    updatedAt: toDateOnly(fm.updatedAt),
    downloadUrl: fm.downloadUrl,
    externalLink: fm.externalLink,
  }),
  fromInput: (input, now) => ({
    updatedAt: toDateOnly(input.updatedAt ?? now),
    downloadUrl: input.downloadUrl,
    externalLink: input.externalLink,
  }),
});
