import { defineConfig } from '@playwright/test';

/** Debian's Chromium, launched with the flags this machine's closed network needs. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: process.env.E2E_BASE_URL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    { name: 'chromium', testIgnore: /\.writes\.spec\.ts$/, use: { browserName: 'chromium', viewport: { width: 1280, height: 800 } } },
    // Tests that write to the site database run after the read-only ones.
    { name: 'writes', testMatch: /\.writes\.spec\.ts$/, dependencies: ['chromium'], use: { browserName: 'chromium' } },
  ],
});
