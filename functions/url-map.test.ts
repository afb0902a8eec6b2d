/**
 * One prefix, one domain (ARCHITECTURE.md, "Where a URL is answered"): functions/api.ts mounts each
 * `/api/<prefix>` once, with a router from the folder the prefix names, and one admin mount whose
 * parts `/api/admin/<folder>` come from the folders they name. Read from the source, so a second
 * mount, a mount elsewhere or a router from another folder fails here.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUPPORT_PATH } from './support/routes.ts';

const root = path.resolve(import.meta.dirname, '..');
const API = 'functions/api.ts';
/** The spec's own prefixes whose name is not their folder's. */
const SPEC_PREFIXES: Record<string, string> = { public: 'content' };
/** Path constants a mount may name instead of a literal. */
const CONSTANTS: Record<string, string> = { SUPPORT_PATH };

/** Each imported name of a module and the folder of functions/ its module is in. */
function importFolders(source: string): Map<string, string> {
  const folders = new Map<string, string>();
  for (const m of source.matchAll(/^import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'\.\/([^/']+)\//gm))
    for (const name of m[1]!.split(',').map((n) => n.trim().replace(/^type\s+/, '')))
      if (name) folders.set(name.split(/\s+as\s+/).pop()!, m[2]!);
  return folders;
}

/** Every `.route(prefix, factory(` in `text`, the prefix read from a literal or a known constant. */
function mounts(text: string): { prefix: string; factory: string }[] {
  return [...text.matchAll(/\.route\(\s*(?:'([^']*)'|([A-Z_]+))\s*,\s*(\w+)\(/g)].map((m) => ({
    prefix: m[1] ?? CONSTANTS[m[2]!] ?? `unknown constant ${m[2]}`,
    factory: m[3]!,
  }));
}

/** The text of `createAdminApi`, the admin mount's parts. */
function adminApi(source: string): string {
  const start = source.indexOf('function createAdminApi(');
  return source.slice(start, source.indexOf('\n}\n', start));
}

describe('one prefix, one domain (functions/api.ts)', () => {
  const source = readFileSync(path.join(root, API), 'utf8');
  const folders = importFolders(source);
  const top = mounts(source.replace(adminApi(source), ''));

  it('mounts each /api prefix once, with a router from the folder it names', () => {
    const api = top.filter((m) => m.prefix.startsWith('/api/'));
    const prefixes = api.map((m) => m.prefix);
    expect(prefixes.length).toBeGreaterThan(10);
    expect(new Set(prefixes).size, `a prefix mounted twice: ${prefixes.join(', ')}`).toBe(prefixes.length);
    for (const { prefix, factory } of api) {
      const segment = prefix.split('/')[2]!;
      const folder = segment === 'admin' ? undefined : (SPEC_PREFIXES[segment] ?? segment);
      if (folder) expect(folders.get(factory), `${prefix} is answered by ${factory}`).toBe(folder);
      expect(prefix.split('/').length, `${prefix}: one segment after /api`).toBe(3);
    }
  });

  it('has one admin mount whose parts come from the folders they name (the dashboard last, at its root)', () => {
    expect(top.filter((m) => m.prefix === '/api/admin').map((m) => m.factory)).toEqual(['createAdminApi']);
    const parts = mounts(adminApi(source));
    expect(parts.length).toBeGreaterThan(5);
    for (const { prefix, factory } of parts) {
      const folder = prefix === '/' ? 'admin' : prefix.slice(1);
      expect(folders.get(factory), `/api/admin${prefix} is answered by ${factory}`).toBe(folder);
    }
    expect(parts.at(-1)).toEqual({ prefix: '/', factory: 'createAdminRoutes' });
  });

  it('is the only file that mounts routes on the app', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'functions'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== API);
    const mounting = files.filter((f) => /\bapp\.route\(/.test(readFileSync(path.join(root, f), 'utf8')));
    expect(mounting).toEqual([]);
  });
});

describe('the answer lane is declared by the route file that offers it', () => {
  it('names "Answer lane:" in the header of every domain file that offers an answer to it', () => {
    const files = execFileSync('git', ['ls-files', 'functions'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith('functions/platform/'));
    const offering = files.filter((f) => /\blane\??\.offer\(/.test(readFileSync(path.join(root, f), 'utf8')));
    expect(offering.length).toBeGreaterThan(0);
    for (const file of offering) {
      const text = readFileSync(path.join(root, file), 'utf8');
      const header = text.slice(0, text.indexOf('*/'));
      expect(header, file).toContain('Answer lane:');
    }
  });
});
