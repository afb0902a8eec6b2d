import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, HEADLESS_SHELL_PATH } from './tests/support/chromium.ts';

export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: true,
  workers: 3,
  // One retry absorbs a machine hiccup; the report still lists a test that needed it as flaky.
  retries: 1,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: process.env.E2E_BASE_URL,
    // Recording a trace slows every test (snapshots at each step, screencast): only a retry records
    // one, so a failure is traced on its second run and passing tests pay nothing.
    trace: 'on-first-retry',
    launchOptions: {
      executablePath: HEADLESS_SHELL_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    { name: 'chromium', testIgnore: /\.writes\.spec\.ts$/, use: { browserName: 'chromium', viewport: { width: 1280, height: 800 } } },
    // Tests that write to the site database run after the read-only ones.
    { name: 'writes', testMatch: /\.writes\.spec\.ts$/, dependencies: ['chromium'], use: { browserName: 'chromium' } },
  ],
});
