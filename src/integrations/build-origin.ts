/**
 * Astro integration: records the origin the site was built with (`site`) in the server output, so
 * the server can put its run-time SITE_URL in its place when it serves prebuilt files
 * (functions/platform/site/static-pages.ts): one build serves production and previews alike.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** Where the build's origin is written, relative to the build folder (DIST_DIR). */
export const BUILD_ORIGIN_FILE = path.join('server', 'build-origin.json');

export default function buildOrigin(): AstroIntegration {
  let origin = '';
  let outDir = '';
  return {
    name: 'build-origin',
    hooks: {
      'astro:config:done': ({ config }) => {
        origin = config.site ? new URL(config.site).origin : '';
        outDir = fileURLToPath(config.outDir);
      },
      'astro:build:done': async () => {
        const file = path.join(outDir, BUILD_ORIGIN_FILE);
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, JSON.stringify({ origin }));
      },
    },
  };
}
