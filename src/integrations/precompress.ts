/**
 * Astro integration: after a build, writes .br and .gz next to every text file in the client output,
 * so the server sends compressed bytes without compressing per request.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { AstroIntegration } from 'astro';

const TEXT = /\.(html|js|mjs|css|svg|json|xml|txt|webmanifest|map)$/;
const MIN_BYTES = 1024;
const br = promisify(brotliCompress);
const gz = promisify(gzip);

export async function precompressDir(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile() && TEXT.test(e.name)).map((e) => path.join(e.parentPath, e.name));
  let written = 0;
  for (const file of files) {
    const bytes = await readFile(file);
    if (bytes.length < MIN_BYTES) continue;
    const [b, g] = await Promise.all([
      br(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
      gz(bytes, { level: 9 }),
    ]);
    await Promise.all([writeFile(`${file}.br`, b), writeFile(`${file}.gz`, g)]);
    written += 1;
  }
  return written;
}

export default function precompress(): AstroIntegration {
  return {
    name: 'precompress',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const count = await precompressDir(fileURLToPath(dir));
        logger.info(`compressed ${count} files (br, gzip)`);
      },
    },
  };
}
