import { defineConfig } from 'vitest/config';
import { SlowestFirst } from './tests/support/sequencer.ts';

/** Unit tests that run alone (the 'unit-serial' project). */
const UNIT_SERIAL = ['functions/boundaries.test.ts', 'functions/content/body-renderer.test.ts', 'functions/content/render.test.ts'];
/** Unit files that mock a module (vi.mock): each in its own module graph ('unit-mocks'). */
const UNIT_MOCKS = ['src/lib/browser/api.test.ts', 'src/lib/browser/payments/client.test.ts'];
/** Integration files that mock a module (vi.mock): each in its own module graph ('integration-mocks'). */
const INTEGRATION_MOCKS = ['tests/integration/staff-bodies.test.ts'];
const INTEGRATION = ['tests/integration/**/*.test.ts', 'tests/leak/**/*.test.ts', 'functions/**/*.security.test.ts'];

export default defineConfig({
  test: {
    // The slowest integration files start first (tests/support/sequencer.ts).
    sequence: { sequencer: SlowestFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'functions/**/*.test.ts'],
          // Route security tables need a database: they run with the integration suites.
          exclude: ['**/*.security.test.ts', '**/node_modules/**', ...UNIT_SERIAL, ...UNIT_MOCKS],
          environment: 'node',
          maxWorkers: 2,
          // A limit for hangs, not for speed: the site build runs beside the unit tests in npm test.
          testTimeout: 30_000,
          // One module graph per worker, as for the integration files: importing each file's modules
          // afresh was 40 % of the unit run. Globals stubbed by a test are restored after it.
          isolate: false,
          unstubGlobals: true,
        },
      },
      {
        test: {
          name: 'unit-mocks',
          include: UNIT_MOCKS,
          environment: 'node',
          maxWorkers: 1,
          testTimeout: 30_000,
        },
      },
      {
        test: {
          // Unit tests that measure the machine or take a core for long, on one worker after the others:
          // the renderer-thread tests count the server thread's ticks while a thread parses, the
          // boundary tests run ESLint, the parser tests overflow a stack; beside another worker on a
          // busy machine they starved.
          name: 'unit-serial',
          include: UNIT_SERIAL,
          environment: 'node',
          maxWorkers: 1,
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: INTEGRATION,
          exclude: ['**/node_modules/**', ...INTEGRATION_MOCKS],
          environment: 'node',
          globalSetup: ['tests/support/vitest-global.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          // Suites start servers and databases: a few at a time keeps two cores responsive.
          maxWorkers: 2,
          // One module graph per worker, not per file: every file imports the whole server, and
          // evaluating it again for each of 60 files cost about a fifth of the suite. Files keep
          // their state in their own servers and databases; a file that mocks a module runs apart.
          isolate: false,
        },
      },
      {
        test: {
          // The route tables and the leak crawler again, each request answered the way a serverless
          // function instance answers it (TEST_APP_THROUGH: tests/support/app.ts, function-server.ts):
          // on Postgres, which a function needs.
          name: 'integration-function',
          include: ['functions/**/*.security.test.ts', 'tests/leak/crawler.test.ts'],
          environment: 'node',
          env: { TEST_APP_THROUGH: 'function' },
          globalSetup: ['tests/support/vitest-global.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
          isolate: false,
        },
      },
      {
        test: {
          name: 'integration-mocks',
          include: INTEGRATION_MOCKS,
          environment: 'node',
          globalSetup: ['tests/support/vitest-global.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          maxWorkers: 1,
        },
      },
      {
        test: {
          // Three server processes behind nginx (npm run test:scale): alone, after the integration suites.
          name: 'scale',
          include: ['tests/scale/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/vitest-global.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: 1,
        },
      },
      {
        test: {
          // Netlify's build and `netlify dev --offline` on a copy of the app (npm run test:netlify).
          name: 'netlify',
          include: ['tests/netlify/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/vitest-global.ts'],
          testTimeout: 60_000,
          hookTimeout: 240_000,
          maxWorkers: 1,
        },
      },
    ],
  },
});
