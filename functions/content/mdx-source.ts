/**
 * Reads the MDX collections in content/ (the git-managed source) with the same zod schemas the Astro
 * build validates them with (each type's strict frontmatter, see the registry). Files are read once
 * and kept in memory; `reload()` re-reads them. A file whose exact text the bundle already parsed
 * (content-index.ts) is taken from that index: parsing the YAML and checking the schemas of every
 * file was a fifth of a first start.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import {
  CONTENT_REGISTRY,
  CONTENT_TYPES,
  compareItems,
  itemFromMdx,
  type ContentItem,
  type ContentType,
} from '#shared/content/registry.ts';
import { SlugSchema } from '#shared/content/schema.ts';

export class ContentFileError extends Error {
  constructor(file: string, problems: string[]) {
    super(`Invalid content file ${file}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ContentFileError';
  }
}

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

/** Splits a Markdown/MDX file into its YAML frontmatter and body. */
export function splitFrontmatter(text: string): { data: unknown; body: string } {
  const match = FRONTMATTER.exec(text.replace(/^\uFEFF/, ''));
  if (!match) return { data: {}, body: text };
  return { data: parseYaml(match[1] ?? '') ?? {}, body: (match[2] ?? '').trim() };
}

/** One line per problem, naming the field; an unknown field is named by its full path. */
function describeIssue(issue: z.core.$ZodIssue): string[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => `${[...issue.path, key].join('.')}: unknown field (check its spelling)`);
  }
  return [`${issue.path.join('.') || 'frontmatter'}: ${issue.message}`];
}

/** Parses one file's text into an item, or throws ContentFileError naming the file and fields. */
export function parseContentFile(type: ContentType, file: string, text: string): ContentItem {
  let data: unknown;
  let body: string;
  try {
    ({ data, body } = splitFrontmatter(text));
  } catch (err) {
    throw new ContentFileError(file, [`frontmatter is not valid YAML: ${(err as Error).message}`]);
  }
  const fm = CONTENT_REGISTRY[type].frontmatter.safeParse(data);
  if (!fm.success) throw new ContentFileError(file, fm.error.issues.flatMap(describeIssue));
  const slug = SlugSchema.safeParse(fm.data.slug ?? path.basename(file).replace(/\.mdx?$/, ''));
  if (!slug.success) throw new ContentFileError(file, [`slug: ${z.prettifyError(slug.error)}`]);
  return itemFromMdx(type, slug.data, fm.data, body);
}

async function listFiles(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true, recursive: true });
    return entries
      .filter((e) => e.isFile() && /\.mdx?$/.test(e.name) && !e.name.startsWith('_'))
      .map((e) => path.join(e.parentPath, e.name))
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

export interface MdxSource {
  list(type: ContentType): readonly ContentItem[];
  get(type: ContentType, slug: string): ContentItem | undefined;
  has(type: ContentType, slug: string): boolean;
  /** The file an item comes from, relative to the content folder (blog/ai-guide.mdx). */
  file(type: ContentType, slug: string): string | undefined;
  reload(): Promise<void>;
}

/** Items parsed ahead of time, by `parsedKey` of the file they were parsed from. */
export type ParsedContent = ReadonlyMap<string, ContentItem>;

/** A file's place and its exact text: the same key only for the same text. */
const parsedKey = (type: ContentType, relative: string, text: string) =>
  `${type}:${relative}:${createHash('sha256').update(text).digest('base64')}`;

interface Collections {
  byType: Map<ContentType, Map<string, ContentItem>>;
  files: Map<string, string>;
}

const fileKey = (type: ContentType, slug: string) => `${type}/${slug}`;

/**
 * Every collection under `contentDir`, each file taken from `parsed` when its text is there, else
 * parsed (and, when given, recorded in `record`); throws on the first invalid or duplicate file.
 */
async function readCollections(contentDir: string, parsed?: ParsedContent, record?: Map<string, ContentItem>): Promise<Collections> {
  const byType = new Map<ContentType, Map<string, ContentItem>>();
  const files = new Map<string, string>();
  for (const type of CONTENT_TYPES) {
    const items = new Map<string, ContentItem>();
    for (const file of await listFiles(path.join(contentDir, CONTENT_REGISTRY[type].folder))) {
      const relative = path.relative(contentDir, file);
      const text = await readFile(file, 'utf8');
      const key = parsedKey(type, relative, text);
      const item = parsed?.get(key) ?? parseContentFile(type, relative, text);
      record?.set(key, item);
      if (items.has(item.slug)) throw new ContentFileError(file, [`slug "${item.slug}" is used by another file`]);
      items.set(item.slug, item);
      files.set(fileKey(type, item.slug), relative.split(path.sep).join('/'));
    }
    byType.set(type, new Map([...items.values()].sort(compareItems).map((i) => [i.slug, i])));
  }
  return { byType, files };
}

/** Every file of `contentDir` parsed, by its key: what the bundle writes as the content index. */
export async function parseContentFolder(contentDir: string): Promise<Map<string, ContentItem>> {
  const record = new Map<string, ContentItem>();
  await readCollections(contentDir, undefined, record);
  return record;
}

/**
 * Loads every collection under `contentDir`; throws on the first invalid or duplicate file. `parsed`:
 * the bundle's index, used by this first load for the files whose text it holds.
 */
export async function createMdxSource(contentDir: string, parsed?: ParsedContent): Promise<MdxSource> {
  let { byType, files } = await readCollections(contentDir, parsed);
  return {
    list: (type) => [...(byType.get(type)?.values() ?? [])],
    get: (type, slug) => byType.get(type)?.get(slug),
    has: (type, slug) => byType.get(type)?.has(slug) ?? false,
    file: (type, slug) => files.get(fileKey(type, slug)),
    // Parsed afresh: a reload is for files changed since the start, and hands out new items.
    reload: async () => {
      ({ byType, files } = await readCollections(contentDir));
    },
  };
}
