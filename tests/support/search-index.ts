/**
 * Reads a Pagefind index whole, as a test needs it: from a server (the entry, its meta file, then
 * every fragment, word chunk and filter file the meta names) or from a folder (the build's), each
 * file decompressed, so a check can look for text in any of them.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

export interface IndexPage {
  url: string;
  content: string;
  meta: Record<string, string>;
}

export interface ReadIndex {
  /** Every file's decompressed bytes as text, by its path under the index folder. */
  files: Map<string, string>;
  /** The pages the fragments describe. */
  pages: IndexPage[];
}

const PREFIX = 'pagefind_dcd';

function open(bytes: Buffer): string {
  const raw = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  return raw.toString('latin1');
}

function pagesOf(files: Map<string, string>): IndexPage[] {
  return [...files]
    .filter(([name]) => name.startsWith('fragment/'))
    .map(([, text]) => JSON.parse(Buffer.from(text.slice(PREFIX.length), 'latin1').toString('utf8')) as IndexPage);
}

/** The index a server answers at `/pagefind/` (every request through `fetchFrom`, e.g. a CDN). */
export async function readServedIndex(base: string, fetchFrom: typeof fetch = fetch): Promise<ReadIndex> {
  const files = new Map<string, string>();
  const get = async (name: string): Promise<string | undefined> => {
    const res = await fetchFrom(`${base}/pagefind/${name}`);
    if (res.status === 404) return undefined;
    if (!res.ok) throw new Error(`GET /pagefind/${name}: ${res.status}`);
    const text = open(Buffer.from(await res.arrayBuffer()));
    files.set(name, text);
    return text;
  };
  const entry = JSON.parse((await get('pagefind-entry.json?ts=site'))!) as { languages: Record<string, { hash: string }> };
  for (const { hash } of Object.values(entry.languages)) {
    const meta = (await get(`pagefind.${hash}.pf_meta`))!;
    for (const name of new Set(meta.match(/[a-z]{2}_[0-9a-f]{7,}/g))) {
      if (name === hash) continue;
      for (const kind of ['fragment', 'index', 'filter']) if (await get(`${kind}/${name}.pf_${kind}`)) break;
    }
  }
  return { files, pages: pagesOf(files) };
}

/** The index in a folder (the build's `dist/client/pagefind`). */
export async function readIndexFolder(dir: string): Promise<ReadIndex> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || /\.(br|gz)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.set(path.relative(dir, file), open(await readFile(file)));
  }
  return { files, pages: pagesOf(files) };
}

/** The names of the files holding `text` (any case). */
export function filesHolding(index: ReadIndex, text: string): string[] {
  const wanted = text.toLowerCase();
  return [...index.files].filter(([, body]) => body.toLowerCase().includes(wanted)).map(([name]) => name);
}
