/**
 * Builds the site if it is missing or older than its sources, then starts the server in this process.
 * Run through `npm start` (which installs first) or `npm run serve`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildSite, needsBuild, ROOT } from './site-build.ts';

if (existsSync(path.join(ROOT, '.env'))) process.loadEnvFile(path.join(ROOT, '.env'));
const distDir = path.resolve(ROOT, process.env.DIST_DIR || 'dist');
if (process.env.SKIP_BUILD !== '1' && needsBuild(distDir)) buildSite(distDir);

await import('../functions/server.ts');
