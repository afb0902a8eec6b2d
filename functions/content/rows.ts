/** Database rows of content_items to content items and back; the per-type part comes from the registry. */
import { detailsFromInput, parseItem, type ContentItem, type ContentType, type ParsedInputOf } from '#shared/content/registry.ts';
import type { ContentRow, NewContentRow } from './tables.ts';

/** Columns and details JSON for a validated input; `slug` is decided by the caller. */
export function rowFromInput<T extends ContentType>(
  type: T,
  slug: string,
  input: ParsedInputOf<T>,
  now = new Date(),
): Omit<NewContentRow, 'id' | 'createdAt' | 'updatedAt' | 'createdBy'> {
  const { title, description, tags, accessLevel, media } = input;
  return { type, slug, title, description, tags, accessLevel, media, details: detailsFromInput(type, input, now) };
}

/** A database row as a content item; throws when its columns or details no longer validate. */
export function itemFromRow(row: ContentRow): ContentItem {
  const { id, slug, title, description, tags, accessLevel, media } = row;
  return parseItem(row.type, 'db', { id, slug, title, description, tags, accessLevel, media }, row.details);
}

/** URL-safe slug from a title: "Hello, World!" -> "hello-world". */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
  return slug || 'item';
}
