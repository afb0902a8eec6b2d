/**
 * The content types, one definition each (types/), and everything derived from them: the type list
 * and the database enum, item and public item types, the public projection, the MDX and database
 * mappers' generic part, list ordering, folders and texts, the types that are sold and downloaded.
 * Adding a type is a file in types/ and a line in ENTRIES (plus its create-form fields component in
 * src/components/create/fields/index.ts); adding a gated field is an edit of its type's definition.
 * No other module keeps a table per type (registry-only.test.ts fails if one does).
 * Pure module: no Node or browser APIs. Browser islands take `ContentTypeInfo` (or `DownloadInfo`)
 * as props instead of importing this module, which would bundle zod; the create form, which checks
 * drafts with the types' schemas, is the exception.
 */
import { z } from 'zod';
import { endsAt } from '../events/schedule.ts';
import type { ContentTypeLabels, DownloadSpec } from './content-type.ts';
import type { ListFilterKind } from './content-type.ts';
import { type ContentSource, type ItemBase } from './schema.ts';
import { blog } from './types/blog.ts';
import { course } from './types/course.ts';
import { event } from './types/event.ts';
import { market } from './types/market.ts';
import { tool } from './types/tool.ts';

export type { ContentSource, MediaItem } from './schema.ts';
export type { Downloadable, Lesson, Section } from './types/course.ts';
export type { MediaType, SkillLevel } from './constants.ts';

/** Every content type, in the order of the database enum. */
const ENTRIES = [blog, tool, course, market, event] as const;

type Entries = typeof ENTRIES;
export type ContentTypeEntry = Entries[number];
export type ContentType = ContentTypeEntry['type'];
type EntryOf<T extends ContentType> = Extract<ContentTypeEntry, { type: T }>;

type TypeNames<E extends readonly unknown[]> = { readonly [K in keyof E]: E[K] extends { type: infer T } ? T : never };

/** The content type names, e.g. for the database's `type` column and its check constraint. */
export const CONTENT_TYPES = ENTRIES.map((e) => e.type) as unknown as TypeNames<Entries>;

/** Each type's definition by name. */
export const CONTENT_REGISTRY = Object.fromEntries(ENTRIES.map((e) => [e.type, e])) as {
  readonly [T in ContentType]: EntryOf<T>;
};

type ItemsByType = { [T in ContentType]: z.output<EntryOf<T>['item']> };
type PublicByType = { [T in ContentType]: z.output<EntryOf<T>['public']> };

/** A full item with its gated fields. Never serialised to a visitor without `toPublicItem`. */
export type ContentItem = ItemsByType[ContentType];
export type ContentItemOf<T extends ContentType> = ItemsByType[T];
/** What the public API answers: common fields, the type's public fields and `type`. */
export type PublicItem = PublicByType[ContentType];
export type PublicItemOf<T extends ContentType> = PublicByType[T];
export type FrontmatterOf<T extends ContentType> = z.output<EntryOf<T>['frontmatter']>;
/** A creator-tools write as sent, and as validated (defaults applied). */
export type ContentInputOf<T extends ContentType> = z.input<EntryOf<T>['input']>;
export type ContentInput = ContentInputOf<ContentType>;
export type ParsedInputOf<T extends ContentType> = z.output<EntryOf<T>['input']>;

export type BlogItem = ContentItemOf<'blog'>;
export type CourseItem = ContentItemOf<'course'>;
export type ToolItem = ContentItemOf<'tool'>;
export type MarketItem = ContentItemOf<'market'>;
export type EventItem = ContentItemOf<'event'>;
export type PublicBlog = PublicItemOf<'blog'>;
export type PublicCourse = PublicItemOf<'course'>;
export type PublicTool = PublicItemOf<'tool'>;
export type PublicMarket = PublicItemOf<'market'>;
export type PublicEvent = PublicItemOf<'event'>;

/** The types sold one at a time (their definitions say `purchasable`): a price opens an item to its buyers. */
export type PurchasableType = Extract<ContentTypeEntry, { purchasable: true }>['type'];
/** The types whose items carry a gated file to download (their definitions have `download`). */
export type DownloadType = Extract<ContentTypeEntry, { download: DownloadSpec }>['type'];

/** The purchasable types, in the registry's order. */
export const PURCHASABLE_TYPES = ENTRIES.filter((e) => e.purchasable).map((e) => e.type) as PurchasableType[];

/** Whether an item's type is sold one at a time (narrows the item to those types). */
export function isPurchasable<I extends { type: ContentType }>(item: I): item is Extract<I, { type: PurchasableType }> {
  return CONTENT_REGISTRY[item.type].purchasable;
}

/** Public items of every type, refusing any key (at any depth) that is not public: for checks and tests. */
export const PublicItemSchema = z.discriminatedUnion(
  'type',
  ENTRIES.map((e) => e.publicStrict) as unknown as [Entries[number]['publicStrict']],
) as unknown as z.ZodType<PublicItem>;

/** Generic code's view of an entry: the correlation between a type and its schemas is lost here. */
interface LooseEntry {
  item: z.ZodType<ContentItem>;
  public: z.ZodType<PublicItem>;
  fields: z.ZodType<Record<string, unknown>>;
  newestFirst?: string;
  soonestFirst?: string;
  lastsMinutes?: string;
  derivePublic?: (fields: unknown) => object;
  toInput?: (fields: unknown) => object;
  fromFrontmatter(fm: unknown, body: string): object;
  fromInput(input: unknown, now: Date): object;
}
const entryOf = (type: ContentType) => CONTENT_REGISTRY[type] as unknown as LooseEntry;

/**
 * What a visitor may see of an item: parsing with the type's public schema copies the public fields
 * only (into new objects), so gated fields and anything not declared public are left out.
 */
export function toPublicItem<I extends ContentItem>(item: I): PublicItemOf<I['type']> {
  const { public: schema, derivePublic } = entryOf(item.type);
  return schema.parse(derivePublic ? { ...item, ...derivePublic(item) } : item) as PublicItemOf<I['type']>;
}

/** Keys whose value is undefined, dropped so that absent optional fields stay absent in items. */
function defined(fields: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/** A full item from its common fields and its type's fields, validated; throws a ZodError if they do not fit. */
export function parseItem<T extends ContentType>(type: T, source: ContentSource, base: ItemBase, fields: unknown): ContentItemOf<T> {
  return entryOf(type).item.parse({ ...(fields as object), ...base, type, source }) as ContentItemOf<T>;
}

/** An MDX file's validated frontmatter and body as a content item; `slug` is also its id. */
export function itemFromMdx<T extends ContentType>(type: T, slug: string, fm: FrontmatterOf<T>, body: string): ContentItemOf<T> {
  const { title, description, tags, accessLevel, media } = fm;
  const fields = defined(entryOf(type).fromFrontmatter(fm, body));
  return parseItem(type, 'mdx', { id: slug, slug, title, description, tags, accessLevel, media }, fields);
}

/**
 * The `details` JSON a database row keeps for a validated input (JSON only: absent fields are left
 * out). Checked against the type's fields, so what is written reads back.
 */
export function detailsFromInput(type: ContentType, input: ParsedInputOf<ContentType>, now: Date): Record<string, unknown> {
  const entry = entryOf(type);
  const details = JSON.parse(JSON.stringify(entry.fromInput(input, now))) as Record<string, unknown>;
  entry.fields.parse(details);
  return details;
}

/**
 * The creator-tools input of a stored item's type fields (its `details`), for editing and for
 * validating a change as a whole: the fields as stored, with those the input writes otherwise
 * (the type's `toInput`) put back in the input's terms. Keys the input does not know are left for
 * its schema to drop.
 */
export function inputFromDetails(type: ContentType, details: Record<string, unknown>): Record<string, unknown> {
  const { toInput } = entryOf(type);
  return toInput ? { ...details, ...toInput(details) } : details;
}

const field = (item: ContentItem, key: string) => (item as Record<string, unknown>)[key];

/** For a `soonestFirst` type: when an item starts and when it stops being upcoming (ms), or undefined. */
function timing(item: ContentItem): { start: number; end: number } | undefined {
  const { soonestFirst, lastsMinutes } = entryOf(item.type);
  if (!soonestFirst) return undefined;
  const startsAt = String(field(item, soonestFirst) ?? '');
  const durationMinutes = lastsMinutes ? Number(field(item, lastsMinutes) ?? 0) : 0;
  return { start: Date.parse(startsAt), end: endsAt({ startsAt, durationMinutes }).getTime() };
}

/**
 * Ordering of lists, as seen at `now` (ms; the time the list is asked for): by the type's
 * `soonestFirst` instant when it has one (upcoming items soonest first, then past ones most recent
 * first), or by its `newestFirst` date (newest first); then by title.
 */
export function compareItems(a: ContentItem, b: ContentItem, now: number = Date.now()): number {
  const byTitle = () => a.title.localeCompare(b.title);
  if (a.type !== b.type) return byTitle();
  const ta = timing(a);
  const tb = timing(b);
  if (ta && tb) {
    const pastA = ta.end <= now;
    const pastB = tb.end <= now;
    if (pastA !== pastB) return pastA ? 1 : -1;
    return (pastA ? tb.start - ta.start : ta.start - tb.start) || byTitle();
  }
  const key = entryOf(a.type).newestFirst;
  return (key ? String(field(b, key) ?? '').localeCompare(String(field(a, key) ?? '')) : 0) || byTitle();
}

/** A list in list order as seen at `now` (ms). */
export function sortItems<I extends ContentItem>(items: readonly I[], now: number = Date.now()): I[] {
  return [...items].sort((a, b) => compareItems(a, b, now));
}

/**
 * When the order of a list sorted at `now` next changes by itself (ms): the soonest end of an
 * upcoming item of a `soonestFirst` type, or undefined when only a write can change it. Caches of
 * sorted lists keep them until then.
 */
export function listOrderChangesAt(items: readonly { type: ContentType }[], now: number): number | undefined {
  let next: number | undefined;
  for (const item of items) {
    const end = timing(item as ContentItem)?.end;
    if (end !== undefined && end > now && (next === undefined || end < next)) next = end;
  }
  return next;
}

/** A type's facts and texts as plain data (no zod): what pages use, and what islands receive as props. */
export interface ContentTypeInfo extends ContentTypeLabels {
  type: ContentType;
  apiSegment: string;
  path: string;
  filters: readonly ListFilterKind[];
  /** "Failed to load {plural}. Please try again later." as the spec's hooks word it. */
  listFailure: string;
  /** "Failed to load {singular}. Please try again later." for a detail page. */
  detailFailure: string;
}

export const CONTENT_TYPE_INFO = Object.fromEntries(
  ENTRIES.map(({ type, apiSegment, path, filters, labels }) => [
    type,
    {
      type,
      apiSegment,
      path,
      filters,
      ...labels,
      listFailure: `Failed to load ${labels.plural}. Please try again later.`,
      detailFailure: `Failed to load ${labels.singular}. Please try again later.`,
    },
  ]),
) as Record<ContentType, ContentTypeInfo>;

type DownloadInfoOf<T extends DownloadType> = {
  type: T;
  apiSegment: EntryOf<T>['apiSegment'];
  purchasable: EntryOf<T>['purchasable'];
} & DownloadSpec;

/**
 * What the download island needs of its item's type: plain data, handed to it as a prop by the
 * detail page (the island never imports this module). A union over the download types, so
 * `purchasable` narrows `type` to a purchasable one.
 */
export type DownloadInfo = { [T in DownloadType]: DownloadInfoOf<T> }[DownloadType];

/** A download type's facts for its island. */
export function downloadInfo<T extends DownloadType>(type: T): DownloadInfoOf<T> {
  const { apiSegment, purchasable, download } = CONTENT_REGISTRY[type] as EntryOf<DownloadType>;
  return { type, apiSegment, purchasable, ...download } as DownloadInfoOf<T>;
}

const BY_SEGMENT = new Map<string, ContentType>(ENTRIES.map((e) => [e.apiSegment, e.type]));

/** Resolves an API segment (blogs, tools, courses, market) to its type, or undefined. */
export function typeFromApiSegment(segment: string): ContentType | undefined {
  return BY_SEGMENT.get(segment);
}

/** "Failed to load {type}. Please try again later." as the spec's hooks word it. */
export function listFailureMessage(type: ContentType): string {
  return CONTENT_TYPE_INFO[type].listFailure;
}

/** "Failed to load {singular type}. Please try again later." for a detail page. */
export function detailFailureMessage(type: ContentType): string {
  return CONTENT_TYPE_INFO[type].detailFailure;
}

/** Detail URL of an item. */
export function itemPath(type: ContentType, slug: string): string {
  return `${CONTENT_TYPE_INFO[type].path}/${slug}`;
}
