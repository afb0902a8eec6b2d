/**
 * The content index: every file of the bundle's content/ parsed once by `npm run bundle` and kept
 * beside the server in node:v8's serialization (a structured clone, read back in a few milliseconds).
 * A start reads the content files as always and takes each from the index only when its exact text
 * is there (mdx-source.ts), so a changed, added or removed file, or another CONTENT_DIR, is parsed
 * and checked as before. Run from the sources there is no index and every file is parsed.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { deserialize, serialize } from 'node:v8';
import { appFile } from '../platform/app-files.ts';
import { parseContentFolder, type ParsedContent } from './mdx-source.ts';

/** Where the bundle keeps the index (the repository has none). */
export const CONTENT_INDEX = appFile('functions/content/content-index.bin');

/** Parses `contentDir` and writes its index to `file` (the bundle's CONTENT_INDEX). */
export async function writeContentIndex(contentDir: string, file: string): Promise<void> {
  await writeFile(file, serialize(await parseContentFolder(contentDir)));
}

/** The index at `file`; none when there is none to read (every file is then parsed). */
export async function readContentIndex(file: string = CONTENT_INDEX): Promise<ParsedContent | undefined> {
  try {
    return deserialize(await readFile(file)) as ParsedContent;
  } catch {
    return undefined;
  }
}
