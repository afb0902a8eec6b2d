/**
 * No browser type copies a server schema by hand (issue 37, item 4): a request body's type comes
 * from its route (`ApiInput`, `InferRequestType`) or from a schema in #shared (`z.input`), so a
 * changed schema fails to compile where the browser sends it. Read with the TypeScript compiler:
 * every zod object schema written in functions/** and src/lib/shared/** (`z.object({ … })`,
 * `z.strictObject`, `X.extend({ … })`, exported or not) by its keys, and every interface or
 * object type alias in src/components/** and src/lib/browser/**; a declaration with the same keys
 * as a schema of three keys or more is a copy.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const MIN_KEYS = 3;

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
}

const nameOf = (name: ts.PropertyName): string | undefined =>
  ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) ? name.text : undefined;

/** The keys of an object literal (spreads are left out: their keys are another schema's). */
function literalKeys(node: ts.ObjectLiteralExpression): string[] {
  return node.properties.flatMap((p) => (p.name && !ts.isSpreadAssignment(p) ? (nameOf(p.name) ?? []) : []));
}

export interface Declared {
  file: string;
  name: string;
  keys: string[];
}

/** Every zod object schema in `source`, by the keys its literal names (and its base's, for `Base.extend`). */
export function schemasIn(source: ts.SourceFile): Declared[] {
  const byName = new Map<string, string[]>();
  const found: Declared[] = [];
  const visit = (node: ts.Node, owner: string) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)) owner = node.name.text;
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.arguments[0]) {
      const method = node.expression.name.text;
      const arg = node.arguments[0];
      if (['object', 'strictObject', 'looseObject', 'extend'].includes(method) && ts.isObjectLiteralExpression(arg)) {
        const base =
          method === 'extend' && ts.isIdentifier(node.expression.expression) ? (byName.get(node.expression.expression.text) ?? []) : [];
        const keys = [...new Set([...base, ...literalKeys(arg)])];
        found.push({ file: source.fileName, name: owner, keys });
        if (!byName.has(owner)) byName.set(owner, keys);
      }
    }
    ts.forEachChild(node, (child) => visit(child, owner));
  };
  visit(source, '(anonymous)');
  return found;
}

/** Every interface and object type alias in `source`, by its property names. */
export function typesIn(source: ts.SourceFile): Declared[] {
  const found: Declared[] = [];
  const members = (list: ts.NodeArray<ts.TypeElement>) => list.flatMap((m) => (m.name ? (nameOf(m.name) ?? []) : []));
  const visit = (node: ts.Node) => {
    if (ts.isInterfaceDeclaration(node) && !node.heritageClauses)
      found.push({ file: source.fileName, name: node.name.text, keys: members(node.members) });
    if (ts.isTypeAliasDeclaration(node) && ts.isTypeLiteralNode(node.type))
      found.push({ file: source.fileName, name: node.name.text, keys: members(node.type.members) });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const sameKeys = (a: string[], b: string[]) => a.length === b.length && a.every((k) => b.includes(k));

/** Each browser type whose keys are a server schema's, named with the schema. */
export function copies(schemas: Declared[], types: Declared[]): string[] {
  return types.flatMap((type) =>
    schemas
      .filter((schema) => schema.keys.length >= MIN_KEYS && sameKeys(schema.keys, type.keys))
      .map((schema) => `${type.file}: ${type.name} copies ${schema.file}: ${schema.name} (${schema.keys.join(', ')})`),
  );
}

describe('browser types and server schemas', () => {
  const schemas = [...sourceFiles('functions'), ...sourceFiles('src/lib/shared')].flatMap((f) => schemasIn(parse(f)));
  const types = [...sourceFiles('src/components'), ...sourceFiles('src/lib/browser')].flatMap((f) => typesIn(parse(f)));

  it('reads the server schemas and the browser types (the check below has something to compare)', () => {
    expect(schemas.length).toBeGreaterThan(80);
    expect(schemas.find((s) => s.name === 'IssueInputSchema')?.keys.sort()).toEqual([
      'accessLevel',
      'audience',
      'body',
      'previewText',
      'subject',
    ]);
    expect(types.length).toBeGreaterThan(50);
  });

  it('finds no browser type that copies a server schema by hand', () => {
    expect(copies(schemas, types)).toEqual([]);
  });

  it('names a copy and the schema it copies', () => {
    const source = (file: string, text: string) => ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const server = schemasIn(
      source(
        'functions/x/schema.ts',
        'const Base = z.object({ a: z.string(), b: z.number() }); const X = Base.extend({ c: z.boolean() });',
      ),
    );
    const browser = typesIn(
      source('src/components/x.ts', 'interface XInput { c: boolean; b: number; a: string } type Y = { a: string; b: number };'),
    );
    expect(copies(server, browser)).toEqual(['src/components/x.ts: XInput copies functions/x/schema.ts: X (a, b, c)']);
  });
});
