/**
 * The prebuilt text files of the site build (pages, robots, manifests), served from memory as page
 * answers. Pages are built once and carry the origin they were built with (canonical links, Open
 * Graph and JSON-LD URLs); when the server runs under another SITE_URL (an image built without one,
 * a deploy preview) that origin is replaced by the run-time one as a file is first served, and a
 * preview's marks are added. Files without either change keep the compressed forms the build wrote.
 * Hashed assets and binary files stay with the file server (sirv), which the handler falls back to.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { lookup } from 'mrmime';
import { createPageAnswer, createPageCache, type PageAnswer } from './page-answers.ts';

const TEXT = /\.(html|xml|txt|json|webmanifest)$/;

/** The file's Content-Type, with the charset for text (the build writes UTF-8). */
const contentType = (file: string) => `${lookup(file) ?? 'text/plain'}; charset=utf-8`;

/** URL paths of the prebuilt text files: `/x` for x/index.html and x.html (trailing slashes are redirected before). */
async function indexFiles(clientDir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const entries = await readdir(clientDir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !TEXT.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const rel = path.relative(clientDir, file).split(path.sep).join('/');
    if (rel.startsWith('_astro/')) continue;
    files.set(`/${rel}`, file);
    if (rel === 'index.html') files.set('/', file);
    else if (rel.endsWith('/index.html')) files.set(`/${rel.slice(0, -'/index.html'.length)}`, file);
    else if (rel.endsWith('.html')) files.set(`/${rel.slice(0, -'.html'.length)}`, file);
  }
  return files;
}

export interface StaticPagesOptions {
  clientDir: string;
  /** The origin the build wrote into its pages, and the one to serve them with. */
  buildOrigin: string;
  siteOrigin: string;
  /** Added to every HTML page (a deploy preview's marks). */
  transformHtml?: ((html: string) => string) | undefined;
  /** Memory the loaded files may take (least recently served out first). */
  maxBytes?: number;
}

/** One spelling of `from` replaced by the same spelling of `to`, where it stands as an origin (not a longer host or port). */
function replaceSpelling(text: string, from: string, to: string): string {
  if (!text.includes(from)) return text;
  const escaped = from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`${escaped}(?![\\w.:-])`, 'g'), to);
}

/**
 * Replaces the build's origin where it stands as an origin, as written and in the spellings a page
 * carries it in too: percent-encoded inside another URL (a share link's `?url=`) and with JSON's
 * escaped slashes.
 */
export function replaceOrigin(text: string, from: string, to: string): string {
  if (!from || from === to) return text;
  const jsonFrom = from.replaceAll('/', '\\/');
  const jsonTo = to.replaceAll('/', '\\/');
  return replaceSpelling(
    replaceSpelling(replaceSpelling(text, from, to), encodeURIComponent(from), encodeURIComponent(to)),
    jsonFrom,
    jsonTo,
  );
}

export async function createStaticPages({
  clientDir,
  buildOrigin,
  siteOrigin,
  transformHtml,
  maxBytes = 48 * 2 ** 20,
}: StaticPagesOptions) {
  const files = await indexFiles(clientDir);
  const cache = createPageCache(maxBytes);
  const rewrite = buildOrigin !== siteOrigin;

  async function load(file: string): Promise<PageAnswer> {
    const type = contentType(file);
    const html = file.endsWith('.html');
    const transform = rewrite || (html && transformHtml);
    const raw = await readFile(file);
    if (!transform) {
      const [br, gzip] = await Promise.all([readFile(`${file}.br`).catch(() => undefined), readFile(`${file}.gz`).catch(() => undefined)]);
      return createPageAnswer({ status: 200, headers: { 'Content-Type': type }, bytes: raw, precompressed: { br, gzip } });
    }
    let text = replaceOrigin(raw.toString('utf8'), buildOrigin, siteOrigin);
    if (html && transformHtml) text = transformHtml(text);
    return createPageAnswer({ status: 200, headers: { 'Content-Type': type }, bytes: Buffer.from(text) });
  }

  return {
    /** The page answer for a URL path, or undefined when no prebuilt text file answers it. */
    async answer(urlPath: string): Promise<PageAnswer | undefined> {
      const file = files.get(urlPath);
      if (!file) return undefined;
      let answer = cache.get(file);
      if (!answer) cache.set(file, (answer = await load(file)));
      return answer;
    },
  };
}

export type StaticPages = Awaited<ReturnType<typeof createStaticPages>>;
