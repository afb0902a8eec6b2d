/**
 * No hand-built API path and no direct fetch to the API in the browser (issue 37, item 4): every
 * call goes through a typed client (hono/client over its route's type), so each path is the route's
 * and each answer the one ApiResult. Read with the TypeScript compiler: every .ts and .tsx file
 * under src/components and src/lib/browser (tests aside) and the client scripts of .astro files
 * there. A string or template text starting with `/api` or `/openai` is a hand-built path, unless it
 * is a typed client's prefix (the first argument of `hc(…)` in api.ts or form-api.ts); a call of
 * `fetch(…)` is a request around the clients, unless it is the transport itself or listed below with
 * where it goes instead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const DIRS = ['src/components', 'src/lib/browser'];
/** The modules that hold the typed clients, whose prefixes are the only API paths written down. */
const CLIENT_MODULES = new Set(['src/lib/browser/api.ts', 'src/lib/browser/form-api.ts', 'src/lib/browser/auth/profile-api.ts']);
/** Direct fetches that are not calls of the API, each with where it goes. */
const OTHER_FETCHES: Record<string, string> = {
  'src/lib/browser/write-fetch.ts': 'the typed clients’ transport: every API call goes out here',
  'src/components/support/support-api.ts': 'the upload to the storage URL the API signed',
  'src/components/layout/site-header.ts': 'the auth service’s sign-out (/auth/v1), not the API',
};
const API_PATH = /^\/(?:api|openai)(?:[/?#]|$)/;

/** Every source the browser runs, as [file, code]: .ts and .tsx files, and .astro files' client scripts. */
function sources(): [string, string][] {
  return DIRS.flatMap((dir) =>
    readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.(tsx?|astro)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts'))
      .map((e): [string, string] => {
        const file = path.relative(ROOT, path.join(e.parentPath, e.name));
        const text = readFileSync(path.join(ROOT, file), 'utf8');
        if (!file.endsWith('.astro')) return [file, text];
        // The frontmatter runs on the server (a plain form's action is a page's, not a request's).
        return [file, [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n')];
      }),
  );
}

/** A hand-built API path or a direct fetch found in one file, as `file: what`. */
function violations(file: string, code: string): string[] {
  const source = ts.createSourceFile(
    file,
    code,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: string[] = [];
  const isClientPrefix = (node: ts.Node) =>
    CLIENT_MODULES.has(file) &&
    ts.isCallExpression(node.parent) &&
    node.parent.arguments[0] === node &&
    ts.isIdentifier(node.parent.expression) &&
    node.parent.expression.text === 'hc';
  const visit = (node: ts.Node) => {
    const text =
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
        ? node.text
        : undefined;
    if (text !== undefined && API_PATH.test(text) && !isClientPrefix(node)) found.push(`${file}: path ${JSON.stringify(text)}`);
    if (ts.isCallExpression(node) && !(file in OTHER_FETCHES)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
      const bare =
        ts.isIdentifier(callee) ||
        (ts.isPropertyAccessExpression(callee) && /^(window|globalThis|self)$/.test(callee.expression.getText(source)));
      if (name === 'fetch' && bare) found.push(`${file}: fetch(${node.arguments[0]?.getText(source) ?? ''})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the browser calls the API through its typed clients only', () => {
  it('finds sources to read', () => {
    const files = sources().map(([file]) => file);
    expect(files).toEqual(
      expect.arrayContaining([...CLIENT_MODULES, 'src/components/forms/contact-form.ts', ...Object.keys(OTHER_FETCHES)]),
    );
  });

  it('has no hand-built API path and no direct fetch outside the clients and their transport', () => {
    expect(sources().flatMap(([file, code]) => violations(file, code))).toEqual([]);
  });

  it('tells a hand-built path and a fetch from a client prefix', () => {
    expect(violations('src/components/x.ts', "postJson('/api/contact', body); fetch(`/openai/draft`); window.fetch(u);")).toEqual([
      'src/components/x.ts: path "/api/contact"',
      'src/components/x.ts: fetch(`/openai/draft`)',
      'src/components/x.ts: path "/openai/draft"',
      'src/components/x.ts: fetch(u)',
    ]);
    expect(violations('src/components/x.tsx', 'const u = `${origin}/api/leads?x=${id}`; const a = <a href="/api/x">x</a>;')).toEqual([
      'src/components/x.tsx: path "/api/leads?x="',
      'src/components/x.tsx: path "/api/x"',
    ]);
    expect(violations('src/lib/browser/form-api.ts', "hc<R>('/api/contact', o);")).toEqual([]);
    expect(violations('src/components/y.ts', "hc<R>('/api/contact', o);")).toEqual(['src/components/y.ts: path "/api/contact"']);
    expect(violations('src/components/y.ts', "const a = '/apiary'; const b = '/account'; other.fetch(x);")).toEqual([]);
  });
});
