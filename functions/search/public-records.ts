/**
 * The records of the public index (issue 36): every text a visitor may read, one record per page,
 * made from the same public projections the pages show (never from a gated field): the services'
 * YAML files, the FAQ, every published item's public fields (`toPublicItem`, so a new field stays out
 * until it is public; an article's preview above its gate; an event's description; a course's
 * section and lesson titles), the newsletter archive's public parts and the community's threads in
 * categories anyone reads. The build makes them from git (src/integrations/search-index.ts); the
 * server from everything it serves, again whenever content changes (public-index.ts).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { CONTENT_TYPE_INFO, CONTENT_TYPES, type PublicItem } from '#shared/content/registry.ts';
import type { PublicContentReader } from '#shared/content/reader.ts';
import { FAQS, faqAnchor } from '#shared/faq.ts';
import { unescapeHtml } from '#shared/html-entities.ts';
import type { NewsletterArchiveReader } from '#shared/newsletter.ts';
import { ServiceSchema, servicePath, sortServices } from '#shared/offerings.ts';
import type { SearchType } from '#shared/search.ts';

/** One page of the index: where it is, its kind and title, and its public text. */
export interface PublicRecord {
  url: string;
  type: SearchType;
  title: string;
  text: string;
}

/** A thread a visitor may read, as the index takes it. */
export interface PublicThread {
  id: string;
  title: string;
  /** Its visible posts' text. */
  text: string;
}

/** Where the records come from; the build has content and the services only. */
export interface PublicSources {
  content: PublicContentReader;
  /** The folder with `services/*.yaml`. */
  contentDir: string;
  newsletter?: NewsletterArchiveReader | undefined;
  /** The threads of categories anyone reads. */
  threads?: (() => Promise<PublicThread[]>) | undefined;
  /** Content records kept between builds (clear it when content changes: a body's preview may move). */
  cache?: ContentRecordCache | undefined;
}

/** At most this many newsletter issues are indexed (newest first). */
const MAX_ISSUES = 1000;
/** Keys whose strings are addresses, ids or dates, not text. */
const NOT_TEXT = new Set([
  'id',
  'slug',
  'type',
  'accessLevel',
  'media',
  'publishedDate',
  'updatedAt',
  'startsAt',
  'localStart',
  'timeZone',
  'format',
  'fileType',
  'externalLink',
]);

/** The text of sanitised HTML: tags out, the common entities read back, whitespace folded. */
export function htmlText(html: string): string {
  return unescapeHtml(html.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

/** Every string of a public item except addresses, ids and dates, depth first. */
function itemText(value: unknown, key = ''): string[] {
  if (NOT_TEXT.has(key)) return [];
  if (typeof value === 'string') return key.endsWith('Html') ? [htmlText(value)] : [value];
  if (Array.isArray(value)) return value.flatMap((v) => itemText(v));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => itemText(v, k));
  return [];
}

async function serviceRecords(contentDir: string): Promise<PublicRecord[]> {
  const dir = path.join(contentDir, 'services');
  const files = (await readdir(dir)).filter((f) => /^[^_].*\.ya?ml$/.test(f));
  const services = await Promise.all(
    files.map(async (file) => ({
      ...ServiceSchema.parse(parse(await readFile(path.join(dir, file), 'utf8'))),
      id: file.replace(/\.ya?ml$/, ''),
    })),
  );
  return sortServices(services).map((s) => ({
    url: servicePath(s.id),
    type: 'service',
    title: s.title,
    text: [
      s.shortDescription,
      s.fullDescription,
      ...s.benefits,
      ...s.process,
      ...s.caseStudies.flatMap((c) => [c.title, c.description]),
    ].join(' '),
  }));
}

const faqRecords = (): PublicRecord[] =>
  FAQS.map((f, i) => ({ url: `/faq#${faqAnchor(i)}`, type: 'faq', title: f.question, text: f.answer }));

/** Content records by item, with the listed item they were made from: kept until content changes. */
export type ContentRecordCache = Map<string, { listed: string; record: PublicRecord }>;

async function contentRecord(reader: PublicContentReader, listed: PublicItem): Promise<PublicRecord> {
  const { type } = listed;
  // The detail adds what lists leave out (an article's public preview, an event's description); an
  // item whose detail cannot be read now is indexed from its list entry.
  const item: PublicItem = (await reader.get(type, listed.slug).catch(() => undefined)) ?? listed;
  // The title is the record's heading; every other public string is its text.
  const text = itemText({ ...item, title: '' }).filter(Boolean);
  return { url: `${CONTENT_TYPE_INFO[type].path}/${item.slug}`, type, title: item.title, text: text.join(' ') };
}

async function contentRecords(reader: PublicContentReader, cache: ContentRecordCache): Promise<PublicRecord[]> {
  const records: PublicRecord[] = [];
  const seen = new Set<string>();
  for (const type of CONTENT_TYPES) {
    for (const listed of await reader.list(type)) {
      const key = `${type}:${listed.slug}`;
      const json = JSON.stringify(listed);
      const kept = cache.get(key);
      const record = kept?.listed === json ? kept.record : await contentRecord(reader, listed);
      cache.set(key, { listed: json, record });
      seen.add(key);
      records.push(record);
    }
  }
  for (const key of cache.keys()) if (!seen.has(key)) cache.delete(key);
  return records;
}

async function issueRecords(archive: NewsletterArchiveReader): Promise<PublicRecord[]> {
  return (await archive.latest(MAX_ISSUES)).map((issue) => ({
    url: `/newsletter/${issue.slug}`,
    type: 'newsletter',
    title: issue.subject,
    text: [issue.previewText, htmlText(issue.publicHtml)].join(' '),
  }));
}

/** Every record of the sources, in address order (the same sources make the same index files). */
export async function publicRecords(sources: PublicSources): Promise<PublicRecord[]> {
  const threads = sources.threads ? await sources.threads() : [];
  const records = [
    ...(await serviceRecords(sources.contentDir)),
    ...faqRecords(),
    ...(await contentRecords(sources.content, sources.cache ?? new Map())),
    ...(sources.newsletter ? await issueRecords(sources.newsletter) : []),
    ...threads.map((t): PublicRecord => ({ url: `/community/threads/${t.id}`, type: 'community', title: t.title, text: t.text })),
  ];
  return records.sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
}
