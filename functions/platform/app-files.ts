/**
 * Where the app's own files are (migrations, the bundled PGlite cluster, a thread's entry point),
 * for the code that needs them: the repository when Node runs the sources, the bundle's root when it
 * runs the bundled server. `npm run bundle` writes every bundled module into `server/` and swaps
 * this module for one that says so (scripts/bundle.ts, appFilesModule; the built serverless functions
 * likewise), so no other module
 * depends on where its own file ends up.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The folder the app runs from: the repository root here. */
export const APP_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A file of the app by its path in the repository (`functions/platform/db/migrations`). */
export const appFile = (repositoryPath: string): string => path.join(APP_ROOT, repositoryPath);

/** The URL a thread is started from, for an entry point named by its source (`functions/content/render-worker.ts`). */
export const entryPoint = (source: string): URL => pathToFileURL(appFile(source));
