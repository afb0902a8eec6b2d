import { defineConfig } from 'vitest/config';
import { SlowestFirst } from './tests/support/sequencer.ts';

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
          exclude: ['**/*.security.test.ts', '**/node_modules/**'],
          environment: 'node',
          // Vitest's default worker count (one on two cores): the renderer-thread tests count the server
          // thread's ticks while a thread parses, and two workers beside a busy machine starved them.
          // A limit for hangs, not for speed: tests that run ESLint or overflow a parser's stack take
          // seconds of a core, shared with the site build that npm test runs beside them.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts', 'tests/leak/**/*.test.ts', 'functions/**/*.security.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/vitest-global.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          // Suites start servers and databases: a few at a time keeps two cores responsive.
          maxWorkers: 2,
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
    ],
  },
});
