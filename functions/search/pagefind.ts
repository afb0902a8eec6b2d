/**
 * Makes the public index's files from records with Pagefind's Node API (the `pagefind` package runs
 * its binary as a service over stdio): each record becomes a small HTML page, its title a heading (so
 * a title's words outrank the text's) and its kind a filter, and Pagefind writes the chunked index the
 * browser's `pagefind.js` reads: a query loads only the chunks its words need. One build at a time
 * per process; the same records in the same order make byte-identical files, so every instance and
 * the build agree on each file's hashed name.
 */
import { escapeHtml } from '#shared/html-entities.ts';
import type { PublicRecord } from './public-records.ts';

/** An index's files by their path under the index's folder (`pagefind-entry.json`, `fragment/…`). */
export type IndexFiles = Map<string, Uint8Array>;

/** Files of Pagefind's own UIs, which the site does not use (it has its own page). */
const UNUSED = /^pagefind-(ui|modular-ui|component-ui|highlight)\.(js|css)$|^wasm\.unknown\.pagefind$/;

/** A record as the page Pagefind indexes: the title as the heading and its meta, the kind as a filter. */
export function recordPage(record: PublicRecord): string {
  const title = escapeHtml(record.title);
  return (
    `<!doctype html><html lang="en"><body><main data-pagefind-body data-pagefind-filter="type:${record.type}" data-pagefind-meta="type:${record.type}">` +
    `<h1 data-pagefind-meta="title">${title}</h1><p>${escapeHtml(record.text)}</p></main></body></html>`
  );
}

let queue: Promise<unknown> = Promise.resolve();
let started = false;

/** The index's files for `records` (builds run one after another). */
export function buildIndexFiles(records: readonly PublicRecord[]): Promise<IndexFiles> {
  const run = queue.then(() => build(records));
  queue = run.catch(() => undefined);
  return run;
}

async function build(records: readonly PublicRecord[]): Promise<IndexFiles> {
  const pagefind = await import('pagefind');
  started = true;
  const { index, errors } = await pagefind.createIndex({ forceLanguage: 'en' });
  if (!index) throw new Error(`Pagefind could not start an index: ${errors.join('; ')}`);
  try {
    for (const record of records) {
      const added = await index.addHTMLFile({ url: record.url, content: recordPage(record) });
      if (added.errors.length) throw new Error(`Pagefind refused ${record.url}: ${added.errors.join('; ')}`);
    }
    const { files, errors: failed } = await index.getFiles();
    if (failed.length) throw new Error(`Pagefind could not write the index: ${failed.join('; ')}`);
    return new Map(files.filter((f) => !UNUSED.test(f.path)).map((f) => [f.path, f.content]));
  } finally {
    await index.deleteIndex();
  }
}

/** Stops Pagefind's service process (the server's close). */
export async function closePagefind(): Promise<void> {
  if (!started) return;
  started = false;
  await (await import('pagefind')).close();
}
