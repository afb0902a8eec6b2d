/**
 * The one projection from a full content item to what a visitor may see. It copies an allow-list of
 * fields, so a gated field added later stays private unless someone adds it here on purpose.
 */
import type { ContentItem, PublicItem, Section } from './schema.ts';

function publicSections(sections: Section[]) {
  return sections.map((s) => ({
    id: s.id,
    title: s.title,
    lessons: s.lessons.map((l) => ({ id: l.id, title: l.title })),
  }));
}

/** Public view of an item: spec fields minus article bodies, lesson bodies and download URLs. */
export function toPublicItem(item: ContentItem): PublicItem {
  const base = {
    id: item.id,
    slug: item.slug,
    title: item.title,
    description: item.description,
    tags: [...item.tags],
    accessLevel: item.accessLevel,
    media: item.media.map((m) => ({ ...m })),
  };
  switch (item.type) {
    case 'blog':
      return { ...base, type: 'blog', publishedDate: item.publishedDate, author: item.author };
    case 'course':
      return {
        ...base,
        type: 'course',
        duration: item.duration,
        skillLevel: item.skillLevel,
        sections: publicSections(item.sections),
      };
    case 'tool':
      return {
        ...base,
        type: 'tool',
        updatedAt: item.updatedAt,
        ...(item.externalLink ? { externalLink: item.externalLink } : {}),
      };
    case 'market':
      return {
        ...base,
        type: 'market',
        fileType: item.fileType,
        ...(item.price !== undefined ? { price: item.price } : {}),
        ...(item.externalLink ? { externalLink: item.externalLink } : {}),
      };
  }
}
