/** Vitest global set-up for the integration project: the shared Postgres server and test build. */
import type { TestProject } from 'vitest/node';
import { exportEnvironment, prepareTestEnvironment } from './site.ts';

export default async function setup(project: TestProject) {
  const env = await prepareTestEnvironment();
  exportEnvironment(env);
  project.provide('testEnv', { pgAdminUrl: env.pgAdminUrl, siteDbUrl: env.siteDbUrl, distDir: env.distDir });
  return () => env.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    testEnv: { pgAdminUrl: string; siteDbUrl: string; distDir: string };
  }
}
