/** An article's or course's search rows: the gated text of each part, as plain text, with what decides who reads it. */
import { itemPath, type ContentItem } from '#shared/content/registry.ts';
import { isPurchaseOnly } from '#shared/payments/purchasable.ts';
import type { NewSearchRow } from './tables.ts';
import { plainText } from './text.ts';

/** Where the rows come from: git (the item's id is its slug) or a database row (its id), and whether it is published. */
export interface RowOrigin {
  source: 'git' | 'db';
  published: boolean;
}

/** The search rows of one item: an article's body, each lesson of a course; none for the types whose text is public. */
export function searchRowsOf(item: ContentItem, { source, published }: RowOrigin): NewSearchRow[] {
  const common = {
    source,
    itemId: item.id,
    contentId: source === 'db' ? item.id : null,
    slug: item.slug,
    accessLevel: item.accessLevel,
    published,
  };
  if (item.type === 'blog') {
    const url = itemPath('blog', item.slug);
    return [{ ...common, itemType: 'blog', part: 'body', title: item.title, url, sold: false, body: plainText(item.content) }];
  }
  if (item.type === 'course') {
    const sold = isPurchaseOnly(item.accessLevel, item.price);
    // Lesson ids are not unique across sections (the form makes them from titles): the first of an id
    // is the one its address (`?lesson=`) opens, so it is the one searched; two rows of one part would
    // make the write fail.
    const seen = new Set<string>();
    const lessons = item.sections.flatMap((section) => section.lessons).filter((lesson) => !seen.has(lesson.id) && seen.add(lesson.id));
    return lessons.map((lesson) => ({
      ...common,
      itemType: 'course' as const,
      part: lesson.id,
      title: `${item.title}: ${lesson.title}`,
      url: `${itemPath('course', item.slug)}?lesson=${encodeURIComponent(lesson.id)}`,
      sold,
      body: plainText(lesson.content),
    }));
  }
  return [];
}
