/** Turns MDX frontmatter and database rows into the one `ContentItem` shape the service serves. */
import { z } from 'zod';
import type { ContentItem, ContentType } from '../../src/lib/content/schema.ts';
import { FRONTMATTER_SCHEMAS } from '../../src/lib/content/schema.ts';
import { SITE } from '../../src/lib/site.ts';
import type { ContentRow, NewContentRow } from '../db/schema.ts';
import { CONTENT_INPUT_SCHEMAS, DETAILS_SCHEMAS } from './schema.ts';

/** Calendar day of a date in UTC, so a date written as 2026-03-14 stays the 14th everywhere. */
export function toDateOnly(date: Date): string {
  return date.toISOString().slice(0, 10);
}

type Frontmatter<T extends ContentType> = z.output<(typeof FRONTMATTER_SCHEMAS)[T]>;

/** An MDX file's validated frontmatter and body as a content item. */
export function itemFromMdx<T extends ContentType>(type: T, slug: string, fm: Frontmatter<T>, body: string): ContentItem {
  const base = {
    id: slug,
    slug,
    title: fm.title,
    description: fm.description,
    tags: fm.tags,
    accessLevel: fm.accessLevel,
    media: fm.media,
    source: 'mdx' as const,
  };
  const f = fm as Frontmatter<ContentType>;
  if (type === 'blog' && 'publishedDate' in f) {
    return {
      ...base,
      type: 'blog',
      publishedDate: toDateOnly(f.publishedDate),
      author: f.author ?? SITE.teamName,
      content: body,
      contentFormat: 'mdx',
    };
  }
  if (type === 'course' && 'sections' in f) {
    return { ...base, type: 'course', duration: f.duration, skillLevel: f.skillLevel, sections: f.sections };
  }
  if (type === 'tool' && 'updatedAt' in f) {
    return {
      ...base,
      type: 'tool',
      updatedAt: toDateOnly(f.updatedAt),
      downloadUrl: f.downloadUrl,
      ...(f.externalLink ? { externalLink: f.externalLink } : {}),
    };
  }
  if (type === 'market' && 'fileType' in f) {
    return {
      ...base,
      type: 'market',
      fileType: f.fileType,
      ...(f.price !== undefined ? { price: f.price } : {}),
      ...(f.downloadUrl ? { downloadUrl: f.downloadUrl } : {}),
      ...(f.externalLink ? { externalLink: f.externalLink } : {}),
    };
  }
  throw new Error(`Frontmatter does not match type ${type}`);
}

type Input<T extends ContentType> = z.output<(typeof CONTENT_INPUT_SCHEMAS)[T]>;

/** Columns and details JSON for a validated input; `slug` is decided by the caller. */
export function rowFromInput<T extends ContentType>(
  type: T,
  slug: string,
  input: Input<T>,
  now = new Date(),
): Omit<NewContentRow, 'id' | 'createdAt' | 'updatedAt' | 'createdBy'> {
  const i = input as Input<ContentType>;
  const columns = {
    type,
    slug,
    title: i.title,
    description: i.description,
    tags: i.tags,
    accessLevel: i.accessLevel,
    media: i.media,
  };
  let details: Record<string, unknown>;
  if ('content' in i) {
    details = {
      publishedDate: toDateOnly(i.publishedDate ?? now),
      ...(i.author ? { author: i.author } : {}),
      content: i.content,
      contentFormat: 'markdown',
    };
  } else if ('sections' in i) {
    details = { duration: i.duration, skillLevel: i.skillLevel, sections: i.sections };
  } else if ('fileType' in i) {
    details = { fileType: i.fileType, price: i.price, downloadUrl: i.downloadUrl, externalLink: i.externalLink };
  } else {
    details = { updatedAt: toDateOnly(i.updatedAt ?? now), downloadUrl: i.downloadUrl, externalLink: i.externalLink };
  }
  return { ...columns, details: JSON.parse(JSON.stringify(details)) as Record<string, unknown> };
}

/** A database row as a content item; throws when its details no longer validate. */
export function itemFromRow(row: ContentRow): ContentItem {
  const base = {
    id: row.id,
    slug: row.slug,
    title: row.title,
    description: row.description,
    tags: row.tags,
    accessLevel: row.accessLevel,
    media: row.media,
    source: 'db' as const,
  };
  switch (row.type) {
    case 'blog': {
      const d = DETAILS_SCHEMAS.blog.parse(row.details);
      return { ...base, type: 'blog', publishedDate: d.publishedDate, author: d.author ?? SITE.teamName, content: d.content, contentFormat: d.contentFormat };
    }
    case 'course': {
      const d = DETAILS_SCHEMAS.course.parse(row.details);
      return { ...base, type: 'course', ...d };
    }
    case 'tool': {
      const d = DETAILS_SCHEMAS.tool.parse(row.details);
      return { ...base, type: 'tool', updatedAt: d.updatedAt, ...(d.downloadUrl ? { downloadUrl: d.downloadUrl } : {}), ...(d.externalLink ? { externalLink: d.externalLink } : {}) };
    }
    case 'market': {
      const d = DETAILS_SCHEMAS.market.parse(row.details);
      return {
        ...base,
        type: 'market',
        fileType: d.fileType,
        ...(d.price !== undefined ? { price: d.price } : {}),
        ...(d.downloadUrl ? { downloadUrl: d.downloadUrl } : {}),
        ...(d.externalLink ? { externalLink: d.externalLink } : {}),
      };
    }
  }
}

/** Ordering of lists: newest articles and tools first; courses and market items by title. */
export function compareItems(a: ContentItem, b: ContentItem): number {
  if (a.type === 'blog' && b.type === 'blog') return b.publishedDate.localeCompare(a.publishedDate) || a.title.localeCompare(b.title);
  if (a.type === 'tool' && b.type === 'tool') return b.updatedAt.localeCompare(a.updatedAt) || a.title.localeCompare(b.title);
  return a.title.localeCompare(b.title);
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
