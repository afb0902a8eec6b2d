/**
 * Per-type facts: URL segments and the exact user-facing texts from the spec's error catalogue.
 */
import type { ContentType } from './schema.ts';

export type ListFilterKind = 'search' | 'tag' | 'category' | 'skillLevel' | 'price';

export interface ContentTypeInfo {
  type: ContentType;
  /** Segment of the public API: /api/public/{apiSegment}. */
  apiSegment: 'blogs' | 'tools' | 'courses' | 'market';
  /** Route of the list page; detail pages live under it. */
  path: '/blog' | '/tools' | '/courses' | '/market';
  /** Singular noun used in messages ("Failed to load blog. ..."). */
  singular: string;
  plural: string;
  listTitle: string;
  listIntro: string;
  loadError: string;
  emptyAll: string;
  emptyFiltered: string;
  filters: ListFilterKind[];
}

export const CONTENT_TYPE_INFO: Record<ContentType, ContentTypeInfo> = {
  blog: {
    type: 'blog',
    apiSegment: 'blogs',
    path: '/blog',
    singular: 'blog',
    plural: 'blogs',
    listTitle: 'Blog',
    listIntro: 'Practical insights on SEO, automation, content and growth from our consultants.',
    loadError: 'Failed to load blog articles.',
    emptyAll: 'No blog articles found.',
    emptyFiltered: 'No articles match your search criteria.',
    filters: ['search', 'tag'],
  },
  course: {
    type: 'course',
    apiSegment: 'courses',
    path: '/courses',
    singular: 'course',
    plural: 'courses',
    listTitle: 'Courses',
    listIntro: 'Step-by-step courses that turn our client playbooks into skills your team keeps.',
    loadError: 'Failed to load courses.',
    emptyAll: 'No courses found.',
    emptyFiltered: 'No courses match your search criteria.',
    filters: ['search', 'category', 'skillLevel'],
  },
  tool: {
    type: 'tool',
    apiSegment: 'tools',
    path: '/tools',
    singular: 'tool',
    plural: 'tools',
    listTitle: 'Free Tools',
    listIntro: 'Templates, checklists and calculators we use with clients, free to download.',
    loadError: 'Failed to load tools.',
    emptyAll: 'No tools found.',
    emptyFiltered: 'No tools found.',
    filters: [],
  },
  market: {
    type: 'market',
    apiSegment: 'market',
    path: '/market',
    singular: 'market item',
    plural: 'market',
    listTitle: 'Marketplace',
    listIntro: 'Digital resources built by our team: templates, kits, swipe files and more.',
    loadError: 'Failed to load marketplace items.',
    emptyAll: 'No marketplace items found.',
    emptyFiltered: 'No items match your search criteria.',
    filters: ['search', 'category', 'price'],
  },
};

const BY_SEGMENT = new Map(Object.values(CONTENT_TYPE_INFO).map((i) => [i.apiSegment as string, i]));

/** Resolves an API segment (blogs, tools, courses, market) to its type, or undefined. */
export function typeFromApiSegment(segment: string): ContentType | undefined {
  return BY_SEGMENT.get(segment)?.type;
}

/** "Failed to load {type}. Please try again later." as the spec's hooks word it. */
export function listFailureMessage(type: ContentType): string {
  return `Failed to load ${CONTENT_TYPE_INFO[type].plural}. Please try again later.`;
}

/** "Failed to load {singular type}. Please try again later." for a detail page. */
export function detailFailureMessage(type: ContentType): string {
  return `Failed to load ${CONTENT_TYPE_INFO[type].singular}. Please try again later.`;
}

/** Detail URL of an item. */
export function itemPath(type: ContentType, slug: string): string {
  return `${CONTENT_TYPE_INFO[type].path}/${slug}`;
}
