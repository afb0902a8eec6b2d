/**
 * The server's own thread never loads the rendering pipeline (Markdown, MDX and React's
 * renderer): bodies render on the renderer threads (body-renderer.ts), and the pipeline's
 * modules cost a start about 15 MiB and a third of a second when the server's thread loads them
 * (issue 32, item 9). Followed here through every import from the server's entry, static and
 * dynamic (`import('…')` with a literal: the adapters load that way, and so did the demo seed's
 * renderer once); not `import type`.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'"`;]*?\bfrom\s*)?['"]([^'"]+)['"]/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
const PIPELINE = ['@mdx-js/mdx', 'react-dom/server', 'remark-gfm', 'micromark', 'unified'];

/** Every module and package the server's thread may load through imports from `entry`. */
function importGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    for (const [, specifier] of [...text.matchAll(STATIC_IMPORT), ...text.matchAll(DYNAMIC_IMPORT)]) {
      if (specifier!.startsWith('node:')) continue;
      const target = specifier!.startsWith('#shared/')
        ? `src/lib/shared/${specifier!.slice('#shared/'.length)}`
        : specifier!.startsWith('.')
          ? path.posix.join(path.posix.dirname(file), specifier!)
          : undefined;
      if (target === undefined) packages.add(specifier!);
      else if (existsSync(path.join(ROOT, target))) queue.push(target);
    }
  }
  return { files, packages };
}

describe("the server's thread", () => {
  // run.ts is what functions/server.ts loads; the render thread's entry is its own.
  const { files, packages } = importGraph('functions/run.ts');

  it('reaches the services (the walk follows imports)', () => {
    expect(files).toContain('functions/compose.ts');
    expect(files).toContain('functions/content/body.ts');
  });

  it('never loads the rendering pipeline', () => {
    expect(files).not.toContain('functions/content/render.ts');
    expect([...packages].filter((name) => PIPELINE.some((heavy) => name === heavy || name.startsWith(`${heavy}/`)))).toEqual([]);
  });
});
