// ESLint: typescript-eslint, React hooks for the islands and eslint-plugin-astro for .astro files, all
// without type information. The rules that need types (promises) run in `npm run check` with the type
// check itself (oxlint on TypeScript 7, .oxlintrc.json). Formatting is Prettier's job (npm run format).
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The architecture's boundaries, executable (ARCHITECTURE.md, "Invariants"). Every folder of functions/ but
// platform/ is a domain; a new one is covered by being there. compose/ is no domain either: it is the
// composition root's parts (functions/compose.ts), which build every domain, stores included.
const DOMAINS = readdirSync(new URL('./functions', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'platform' && entry.name !== 'compose')
  .map((entry) => entry.name);
const TESTS = ['**/*.test.ts', '**/*.test.tsx', 'tests/**'];
/**
 * date-fns by function (`date-fns/format`): its index loads all of its 300 modules, the slowest
 * part of the server's start (tests/integration/startup.test.ts). Part of every block's rule.
 */
const dateFnsRules = {
  paths: [{ name: 'date-fns', message: "Import each function from its own module: import { format } from 'date-fns/format'." }],
};
/** The server, scripts and tests reach src/lib through its aliases (package.json `imports`), never a path up and into src/. Part of every block's rule. */
const srcLibRules = {
  patterns: [
    { regex: '^(\\.\\./)+src/lib/', message: 'Import src/lib through its aliases: #shared/… or #server/… (package.json imports).' },
  ],
};
const restrict = (...rules) => ({
  '@typescript-eslint/no-restricted-imports': [
    'error',
    {
      paths: [dateFnsRules, srcLibRules, ...rules].flatMap((r) => r.paths ?? []),
      patterns: [srcLibRules, ...rules].flatMap((r) => r.patterns ?? []),
    },
  ],
});
/** Browser code reaches the server over HTTP through src/lib/browser/api.ts: route types only. */
const browserRules = {
  patterns: [
    {
      regex: '(^|/)functions/',
      allowTypeImports: true,
      message: 'Browser code calls the API through src/lib/browser/api.ts; from functions/ it may import route types only (import type).',
    },
    { regex: '(^|/)server/', message: 'src/lib/server is for page frontmatter and endpoints, not browser code.' },
  ],
};
/** src/lib/shared runs everywhere: nothing browser-only, server-only or from functions/. */
const sharedRules = {
  patterns: [
    {
      regex: '(^|/)(functions|browser|server)/',
      message: 'src/lib/shared is pure: it imports no browser, server or functions/ module.',
    },
  ],
};
/**
 * Infrastructure knows no domain: compose.ts passes in what it needs. It may name the composition's
 * `Services` type (the site handler hands it to pages), never import a value from it.
 */
const platformRules = {
  patterns: [
    {
      regex: `^(\\.\\./)+(${DOMAINS.join('|')}|tables\\.ts)(/|$)`,
      message: 'functions/platform is infrastructure: it imports no domain (compose.ts passes in what it needs).',
    },
    {
      regex: '^(\\.\\./)+((config|compose|app|main|server|worker)\\.ts|compose/.+)$',
      allowTypeImports: true,
      message: 'functions/platform is infrastructure: from the composition it may import types only.',
    },
  ],
};
/**
 * Each domain has a front door: another domain imports only its `index.ts` (types included), never a
 * path into its other files. A domain's data is read through its service or a registered hook.
 */
const frontDoor = {
  regex: `^(\\.\\./)+(${DOMAINS.join('|')})/(?!index\\.ts$).+`,
  message:
    'Import another domain through its front door, functions/<domain>/index.ts (export what you need there); its store and tables never (ask its service, or register a hook in compose.ts).',
};
const domainRules = { patterns: [frontDoor] };
/** A table may reference another domain's table (a foreign key), and nothing else of it. */
const tableRules = {
  patterns: [
    {
      regex: `^(\\.\\./)+(${DOMAINS.join('|')})/(?!(.+/)?tables\\.ts$).+`,
      message: "A table may name another domain's table (a foreign key), nothing else of it.",
    },
  ],
};
/**
 * SQL lives in stores: drizzle only in store.ts and tables.ts files, a store split by part in its
 * store/ folder (community/store/), and the database client.
 */
const storeRules = {
  paths: [
    { name: 'drizzle-orm', allowTypeImports: true, message: "Queries live in the owning domain's store.ts; tables in its tables.ts." },
  ],
  patterns: [
    { group: ['drizzle-orm/*'], allowTypeImports: true, message: "Queries live in the owning domain's store.ts; tables in its tables.ts." },
  ],
};
const STORES = ['functions/**/store.ts', 'functions/**/store/*.ts', 'functions/**/tables.ts'];
/** The database client, and the logger that makes query errors safe to log. */
const DRIZZLE_INFRA = ['functions/platform/db/**/*.ts', 'functions/platform/logger.ts'];

/**
 * Sizes held by lint (STYLE.md: files under about 300 lines): every non-test source file. A file that
 * cannot be shorter is listed here with its reason (and says it at its top).
 */
const MAX_LINES = 300;
const LONG_FILES = {
  // Mail copy: six billing mails in three languages, kept together so translators see it whole.
  'functions/email/templates/billing-copy.ts': 330,
  // The bench driver: one short function per budget's measurement.
  'scripts/bench/index.ts': 420,
};

/**
 * Functions under about 80 lines (STYLE.md), blank lines and comments aside: a factory is a set of
 * named parts over an explicit deps object, a component a set of smaller ones. A file whose function
 * cannot be shorter is listed here with its reason (and says it at its top).
 */
const MAX_FUNCTION = { max: 80, skipBlankLines: true, skipComments: true };
const LONG_FUNCTIONS = {};

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'bundle/',
      '.preview/',
      '.astro/',
      '.data/',
      '.tmp/',
      'test-results/',
      'playwright-report/',
      'functions/platform/db/migrations/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...astro.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // Input checks match control characters on purpose (they are refused before any query).
      'no-control-regex': 'off',
      'no-console': 'off',
    },
  },
  {
    files: ['src/components/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  // Boundaries (see the rules above). A later block replaces an earlier one's rule, so each file falls in one.
  { files: ['**/*.{ts,tsx}'], rules: restrict() },
  { files: ['src/components/**/*.{ts,tsx}', 'src/lib/browser/**/*.ts'], ignores: TESTS, rules: restrict(browserRules) },
  { files: ['src/lib/shared/**/*.ts'], ignores: TESTS, rules: restrict(sharedRules) },
  {
    files: ['functions/platform/**/*.ts'],
    ignores: [...TESTS, ...STORES, ...DRIZZLE_INFRA],
    rules: restrict(platformRules, storeRules),
  },
  {
    files: ['functions/platform/**/{store,tables}.ts', ...DRIZZLE_INFRA],
    ignores: TESTS,
    rules: restrict(platformRules),
  },
  { files: DOMAINS.map((d) => `functions/${d}/**/*.ts`), ignores: [...TESTS, ...STORES], rules: restrict(domainRules, storeRules) },
  {
    files: DOMAINS.flatMap((d) => [`functions/${d}/**/store.ts`, `functions/${d}/**/store/*.ts`]),
    ignores: TESTS,
    rules: restrict(domainRules),
  },
  { files: DOMAINS.map((d) => `functions/${d}/**/tables.ts`), ignores: TESTS, rules: restrict(tableRules) },
  {
    files: ['**/*.{ts,tsx,js,mjs,astro}'],
    ignores: [...TESTS, ...Object.keys(LONG_FILES)],
    rules: { 'max-lines': ['error', { max: MAX_LINES }] },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs,astro}'],
    ignores: [...TESTS, ...Object.keys(LONG_FUNCTIONS)],
    rules: { 'max-lines-per-function': ['error', MAX_FUNCTION] },
  },
  ...Object.entries(LONG_FUNCTIONS).map(([file, max]) => ({
    files: [file],
    rules: { 'max-lines-per-function': ['error', { ...MAX_FUNCTION, max }] },
  })),
  ...Object.entries(LONG_FILES).map(([file, max]) => ({ files: [file], rules: { 'max-lines': ['error', { max }] } })),
);
