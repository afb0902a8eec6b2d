/**
 * The architecture's boundaries are lint rules (eslint.config.js): each case below is a line that
 * breaks one, linted as if it stood in a file of that zone, and must fail the lint; its allowed
 * neighbour must pass. Type-aware rules are off here: only the import rules are under test.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({
  cwd: new URL('..', import.meta.url).pathname,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
  },
});

async function restricted(filePath: string, code: string): Promise<boolean> {
  const [result] = await eslint.lintText(`${code}\nexport const used = x;\n`, { filePath });
  return result!.messages.some((m) => m.ruleId === '@typescript-eslint/no-restricted-imports');
}

const CASES: { zone: string; file: string; refused: string; allowed: string }[] = [
  {
    zone: 'the server reaches src/lib through its aliases',
    file: 'functions/feeds/probe.ts',
    refused: "import { x } from '../../src/lib/server/rss.ts';",
    allowed: "import { x } from '#server/rss.ts';",
  },
  {
    zone: 'a script reaches src/lib through its aliases',
    file: 'scripts/probe.ts',
    refused: "import { x } from '../src/lib/shared/access.ts';",
    allowed: "import { x } from '#shared/access.ts';",
  },
  {
    zone: 'browser code imports no server value',
    file: 'src/components/admin/Probe.tsx',
    refused: "import { x } from '../../../functions/users/service.ts';",
    allowed: "import type { x } from '../../../functions/users/routes.ts';",
  },
  {
    zone: 'browser code imports no server-only page module',
    file: 'src/lib/browser/probe.ts',
    refused: "import { x } from '../server/context.ts';",
    allowed: "import { x } from '#shared/access.ts';",
  },
  {
    zone: 'shared code is pure',
    file: 'src/lib/shared/probe.ts',
    refused: "import type { x } from '../browser/api.ts';",
    allowed: "import { x } from './access.ts';",
  },
  {
    zone: 'infrastructure imports no domain',
    file: 'functions/platform/http/probe.ts',
    refused: "import { x } from '../../users/service.ts';",
    allowed: "import { x } from '../errors.ts';",
  },
  {
    zone: 'infrastructure imports no composition value',
    file: 'functions/platform/site/probe.ts',
    refused: "import { x } from '../../compose.ts';",
    allowed: "import type { x } from '../../compose.ts';",
  },
  {
    zone: "infrastructure imports no composition part's value",
    file: 'functions/platform/site/probe.ts',
    refused: "import { x } from '../../compose/content.ts';",
    allowed: "import type { x } from '../../compose/content.ts';",
  },
  {
    zone: "a domain imports no other domain's store",
    file: 'functions/payments/probe.ts',
    refused: "import { x } from '../users/store.ts';",
    allowed: "import { x } from '../users/index.ts';",
  },
  {
    zone: 'a domain imports another only through its front door (index.ts), types included',
    file: 'functions/payments/grants/probe.ts',
    refused: "import type { x } from '../../users/service.ts';",
    allowed: "import type { x } from '../../users/index.ts';",
  },
  {
    zone: "a domain's own files are its own business",
    file: 'functions/payments/grants/probe.ts',
    refused: "import { x } from '../../users/guards.ts';",
    allowed: "import { x } from '../service.ts';",
  },
  {
    zone: "a store imports no other domain's tables",
    file: 'functions/feeds/store.ts',
    refused: "import { x } from '../users/tables.ts';",
    allowed: "import { x } from './tables.ts';",
  },
  {
    zone: "a table may name another domain's table (a foreign key), never its store",
    file: 'functions/events/tables.ts',
    refused: "import { x } from '../users/store.ts';",
    allowed: "import { x } from '../users/tables.ts';",
  },
  {
    zone: 'drizzle only in stores',
    file: 'functions/content/probe.ts',
    refused: "import { x } from 'drizzle-orm';",
    allowed: "import type { x } from 'drizzle-orm';",
  },
  {
    zone: 'drizzle in a store',
    file: 'functions/content/store.ts',
    refused: "import { x } from '../users/store.ts';",
    allowed: "import { x } from 'drizzle-orm';",
  },
];

describe('architecture boundaries (eslint no-restricted-imports zones)', () => {
  it.each(CASES)('$zone', async ({ file, refused, allowed }) => {
    expect(await restricted(file, refused)).toBe(true);
    expect(await restricted(file, allowed)).toBe(false);
  });
});

describe('sizes held by lint (max-lines)', () => {
  const tooLong = async (filePath: string, lines: number) => {
    const code = Array.from({ length: lines }, (_, i) => `export const v${i} = ${i};`).join('\n');
    const [result] = await eslint.lintText(`${code}\n`, { filePath });
    return result!.messages.some((m) => m.ruleId === 'max-lines');
  };

  it('refuses a source file over 300 lines, not a test, and holds a listed long file to its own bound', async () => {
    expect(await tooLong('functions/payments/probe.ts', 300)).toBe(false);
    expect(await tooLong('functions/payments/probe.ts', 301)).toBe(true);
    expect(await tooLong('src/components/admin/Probe.tsx', 301)).toBe(true);
    expect(await tooLong('functions/payments/probe.test.ts', 400)).toBe(false);
    expect(await tooLong('scripts/bench/index.ts', 400)).toBe(false);
    expect(await tooLong('scripts/bench/index.ts', 421)).toBe(true);
  });
});

describe('sizes held by lint (max-lines-per-function)', () => {
  /** A function of `lines` lines of code, with a comment and a blank line after each statement (which do not count). */
  const tooLong = async (filePath: string, lines: number) => {
    const body = Array.from({ length: lines - 3 }, (_, i) => `  const v${i} = ${i};\n  // a comment\n`).join('\n');
    const code = `export function probe() {\n${body}  return 0;\n}\n`;
    const [result] = await eslint.lintText(code, { filePath });
    return result!.messages.some((m) => m.ruleId === 'max-lines-per-function');
  };

  it('refuses a function over 80 lines in source, not in a test, comments and blank lines aside', async () => {
    expect(await tooLong('functions/payments/probe.ts', 80)).toBe(false);
    expect(await tooLong('functions/payments/probe.ts', 81)).toBe(true);
    expect(await tooLong('src/components/admin/Probe.tsx', 81)).toBe(true);
    expect(await tooLong('scripts/probe.ts', 81)).toBe(true);
    expect(await tooLong('functions/payments/probe.test.ts', 200)).toBe(false);
  });
});
