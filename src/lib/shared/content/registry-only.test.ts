/**
 * The registry is the one place a content type lives: no code under src/ or functions/ keeps a
 * table with an entry per type (`Record<ContentType, …>`, or the same as a mapped type) outside the
 * type definitions (registry.ts, content-type.ts, types/). Such a table is what a new type would
 * have to be added to by hand; a field of the type's definition says the same thing once.
 * Tests may keep per-type fixtures (a missing one fails the type check, which is the point).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const SCANNED = ['src', 'functions'];
const SOURCE = /\.(ts|tsx|astro)$/;
const TEST = /\.test\.tsx?$/;
/** A table keyed by every content type, however it is spelt. */
const PER_TYPE_TABLE = /Record<\s*ContentType\s*,|\[\s*\w+\s+in\s+ContentType\s*\]/;

/** Where a per-type table is the definition itself. */
const DEFINITIONS = [/^src\/lib\/shared\/content\/(registry|content-type)\.ts$/, /^src\/lib\/shared\/content\/types\/[^/]+\.ts$/];

/** Files allowed a per-type table, each with why. */
const ALLOWED: Record<string, string> = {
  // The create form's fields components: React components cannot live in the pure, shared registry,
  // so this map is the one place the form is told about a type (its facts still come from the registry).
  'src/components/create/fields/index.ts': 'UI components per type',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(rel);
    return SOURCE.test(entry.name) && !TEST.test(entry.name) ? [rel] : [];
  });
}

describe('the content registry is the one place a content type lives', () => {
  const files = SCANNED.flatMap(sourceFiles);

  it('scans the source tree', () => {
    expect(files).toContain('src/lib/shared/content/registry.ts');
    expect(files).toContain('functions/content/gated/service.ts');
    expect(files.some((f) => f.endsWith('.astro'))).toBe(true);
    expect(files.some((f) => f.endsWith('.tsx'))).toBe(true);
  });

  it('recognises a per-type table in any spelling', () => {
    for (const table of [
      'Record<ContentType, string>',
      'Record< ContentType ,string>',
      '{ [T in ContentType]: number }',
      '{ [ K in ContentType ]: 1 }',
    ])
      expect(PER_TYPE_TABLE.test(table), table).toBe(true);
    for (const other of ['Map<ContentType, Item[]>', 'Record<string, ContentType>', 'Partial<ContentTypeInfo>'])
      expect(PER_TYPE_TABLE.test(other), other).toBe(false);
  });

  it('finds no table keyed by content type outside the type definitions', () => {
    const offenders = files.filter(
      (file) =>
        !DEFINITIONS.some((d) => d.test(file)) && !(file in ALLOWED) && PER_TYPE_TABLE.test(readFileSync(path.join(ROOT, file), 'utf8')),
    );
    expect(offenders, 'move these per-type facts into the types’ definitions (src/lib/shared/content/types/)').toEqual([]);
  });

  it('allows only files that still have such a table', () => {
    const stale = Object.keys(ALLOWED).filter((file) => !PER_TYPE_TABLE.test(readFileSync(path.join(ROOT, file), 'utf8')));
    expect(stale).toEqual([]);
  });
});
