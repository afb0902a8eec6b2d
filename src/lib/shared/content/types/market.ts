/** Marketplace items: the file a buyer receives is gated; price, file type and shop link are public. */
import { z } from 'zod';
import { defineContentType } from '../content-type.ts';
import { ExternalLinkSchema, FileRefSchema, ONE_LINE, ONE_LINE_MESSAGE } from '../schema.ts';

export const market = defineContentType({
  type: 'market',
  folder: 'market',
  apiSegment: 'market',
  path: '/market',
  labels: {
    singular: 'market item',
    plural: 'market',
    listTitle: 'Marketplace',
    listIntro: 'Digital resources built by our team: templates, kits, swipe files and more.',
    loadError: 'Failed to load marketplace items.',
    emptyAll: 'No marketplace items found.',
    emptyFiltered: 'No items match your search criteria.',
    searchPlaceholder: 'Search the marketplace…',
    name: 'Market Item',
    itemLabel: 'Market item',
  },
  filters: ['search', 'category', 'price'],
  frontmatter: {
    price: z.number().min(0).max(100_000).optional().describe('Price in dollars; absent or 0 means free.'),
    fileType: z
      .string()
      .trim()
      .min(1)
      .max(40)
      .regex(ONE_LINE, ONE_LINE_MESSAGE)
      .describe('What the buyer gets, e.g. "PDF" or "Figma file".'),
    downloadUrl: FileRefSchema.optional().describe('The file a buyer receives. Gated.'),
    externalLink: ExternalLinkSchema.optional().describe('Optional link to an outside page.'),
  },
  input: {
    fileType: z.string().trim().min(1).max(40).regex(ONE_LINE, ONE_LINE_MESSAGE).default('Digital download'),
  },
  fields: {
    fileType: z.string(),
    price: z.number().optional(),
    downloadUrl: FileRefSchema.optional(),
    externalLink: z.string().optional(),
  },
  publicFields: {
    fileType: z.string(),
    price: z.number().optional(),
    externalLink: z.string().optional(),
  },
  gated: ['downloadUrl'],
  createFields: ['downloadUrl', 'externalLink', 'price', 'fileType'],
  purchasable: true,
  download: { leadWhenFree: false },
  drafting: {
    title: '{subject} Template Pack',
    description: 'A ready-made resource pack for {topic}: templates and checklists you can adapt to your business in an afternoon.',
    outline: 'pack',
    fallbackTag: 'Templates',
  },
  fromFrontmatter: (fm) => ({
    fileType: fm.fileType,
    price: fm.price,
    downloadUrl: fm.downloadUrl,
    externalLink: fm.externalLink,
  }),
  fromInput: (input) => ({
    fileType: input.fileType,
    price: input.price,
    downloadUrl: input.downloadUrl,
    externalLink: input.externalLink,
  }),
});
