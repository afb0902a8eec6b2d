/**
 * JavaScript a built page ships before interaction, gzip-compressed: external scripts, island
 * components and renderers, everything they import statically, and inline scripts.
 * Deterministic (bytes), so the test suite checks the budgets with it and the benchmark prints it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export interface PageWeight {
  page: string;
  files: string[];
  inlineBytes: number;
  gzipBytes: number;
  /** The part of gzipBytes that hydrates islands (components, renderers and what they import). */
  islandGzipBytes: number;
  islands: number;
}

const gz = (bytes: Buffer | string) => gzipSync(bytes, { level: 9 }).length;

function staticImports(code: string): string[] {
  const out: string[] = [];
  const re = /(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;
  for (const m of code.matchAll(re)) out.push(m[1]!);
  return out;
}

/** Every JS file a page loads eagerly, following static imports between chunks. */
function closure(clientDir: string, entries: string[]): string[] {
  const seen = new Set<string>();
  const queue = entries.map((e) => path.join(clientDir, e));
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const rel of staticImports(code)) queue.push(path.resolve(path.dirname(file), rel));
  }
  return [...seen];
}

/** Weight of one built HTML page. */
export function pageWeight(clientDir: string, htmlFile: string): PageWeight {
  const page =
    '/' +
    path
      .relative(clientDir, htmlFile)
      .replace(/(^|\/)index\.html$/, '')
      .replace(/\.html$/, '');
  return htmlWeight(clientDir, readFileSync(htmlFile, 'utf8'), page === '/' ? '/' : page.replace(/\/$/, ''));
}

/** Weight of a page's HTML (a page rendered per request, as served), its scripts read from the client build. */
export function htmlWeight(clientDir: string, html: string, page: string): PageWeight {
  const entries = new Set<string>();
  const islandEntries = new Set<string>();
  for (const m of html.matchAll(/<script[^>]*\ssrc="(\/[^"]+\.js)"/g)) entries.add(m[1]!);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="(\/[^"]+\.js)"/g)) entries.add(m[1]!);
  for (const m of html.matchAll(/(?:component-url|renderer-url)="(\/[^"]+\.js)"/g)) {
    entries.add(m[1]!);
    islandEntries.add(m[1]!);
  }
  const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)(?![^>]*type="application\/ld\+json")[^>]*>([\s\S]*?)<\/script>/g)]
    .map((m) => m[1]!)
    .join('\n');
  const files = closure(clientDir, [...entries]);
  const gzipBytes = files.reduce((n, f) => n + gz(readFileSync(f)), 0) + (inline ? gz(inline) : 0);
  const islandGzipBytes = closure(clientDir, [...islandEntries]).reduce((n, f) => n + gz(readFileSync(f)), 0);
  return {
    page,
    files: files.map((f) => path.relative(clientDir, f)),
    inlineBytes: Buffer.byteLength(inline),
    gzipBytes,
    islandGzipBytes,
    islands: (html.match(/<astro-island/g) ?? []).length,
  };
}

/** Weights of every HTML page in a client build folder, sorted by path. */
export function allPageWeights(clientDir: string): PageWeight[] {
  return readdirSync(clientDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.html'))
    .map((e) => pageWeight(clientDir, path.join(e.parentPath, e.name)))
    .sort((a, b) => a.page.localeCompare(b.page));
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
