/**
 * Netlify's variables in this app's words. A Netlify build and its functions are told where they run
 * by the platform (CONTEXT, URL, DEPLOY_PRIME_URL, HEAD, COMMIT_REF; Netlify DB's NETLIFY_DATABASE_URL),
 * never by our own names: this module turns the one into the other, once, where the build script and
 * the function entries read their environment. What a variable set on purpose says always wins.
 *
 * A function does not see every build variable at run time, so the build writes what it worked out
 * (the site's address and a preview's branch and commit, nothing secret) to a deploy record beside the
 * site build, and a function instance reads it at its start (`functionEnvironment`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

type Env = Record<string, string | undefined>;

/** The deploy record, relative to the site build (DIST_DIR), which ships with the functions. */
export const DEPLOY_RECORD = 'server/netlify-deploy.json';

/** The Netlify deploy contexts whose deploys are previews: a pull request's, and a branch's. */
const PREVIEW_CONTEXTS = new Set(['deploy-preview', 'branch-deploy']);

/**
 * Whether this is a preview: Netlify's CONTEXT says so at build time; at run time a function has no
 * CONTEXT (or `netlify dev`'s own), so the build records it as DEPLOY_CONTEXT.
 */
export const isPreviewContext = (env: Env): boolean =>
  PREVIEW_CONTEXTS.has(env.CONTEXT ?? '') || PREVIEW_CONTEXTS.has(env.DEPLOY_CONTEXT ?? '');

/** The variables that have a value (an empty one says nothing). */
const present = (env: Env): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => Boolean(entry[1])));

/**
 * What a deploy says about itself, in our names: its address (production's own URL, a preview's
 * DEPLOY_PRIME_URL), and for a preview its branch and commit (preview mode) and test payments.
 */
export function deployVariables(env: Env): Record<string, string> {
  const preview = isPreviewContext(env);
  return present({
    SITE_URL: env.CONTEXT === 'production' ? env.URL : env.DEPLOY_PRIME_URL,
    PREVIEW_OF: preview ? env.HEAD || env.BRANCH : undefined,
    PREVIEW_COMMIT: preview ? env.COMMIT_REF : undefined,
    PAYMENTS: preview ? 'test' : undefined,
    DEPLOY_CONTEXT: env.CONTEXT,
  });
}

/**
 * A preview's own database, never production's: Netlify DB's branch for the preview
 * (NETLIFY_DATABASE_URL pooled, NETLIFY_DATABASE_URL_UNPOOLED direct), or PREVIEW_DATABASE_URL (with
 * PREVIEW_DATABASE_DIRECT_URL) set for the previews' context. DATABASE_URL is production's: a variable
 * set for all contexts would otherwise give every preview production's data.
 */
function previewDatabase(env: Record<string, string>): Record<string, string> {
  if (env.NETLIFY_DATABASE_URL)
    return present({ DATABASE_URL: env.NETLIFY_DATABASE_URL, DATABASE_DIRECT_URL: env.NETLIFY_DATABASE_URL_UNPOOLED });
  return present({ DATABASE_URL: env.PREVIEW_DATABASE_URL, DATABASE_DIRECT_URL: env.PREVIEW_DATABASE_DIRECT_URL });
}

/**
 * The environment a Netlify build runs the app's steps with. Production: the deploy's variables under
 * the ones set on purpose, and Netlify DB's database when DATABASE_URL is not set. A preview: its own
 * address, preview mode and test payments whatever was set for all contexts, and its own database only.
 */
export function buildEnvironment(env: Env): Env {
  const given = present(env);
  const deploy = deployVariables(given);
  if (!isPreviewContext(given)) {
    const netlifyDb = present({ DATABASE_URL: given.NETLIFY_DATABASE_URL, DATABASE_DIRECT_URL: given.NETLIFY_DATABASE_URL_UNPOOLED });
    return { ...deploy, ...(given.DATABASE_URL ? {} : netlifyDb), ...given };
  }
  const { DATABASE_URL: _production, DATABASE_DIRECT_URL: _productionDirect, ...rest } = given;
  return { ...rest, ...deploy, ...previewDatabase(given) };
}

/** Why a preview cannot be built: it has no database of its own (undefined when it has one, or is no preview). */
export function previewDatabaseProblem(env: Env): string | undefined {
  if (!isPreviewContext(env) || buildEnvironment(env).DATABASE_URL) return undefined;
  return (
    "A Deploy Preview needs a database of its own and never uses DATABASE_URL (production's): install Netlify DB, " +
    "which gives each preview a branch (NETLIFY_DATABASE_URL), or set PREVIEW_DATABASE_URL for the previews' context."
  );
}

/** The variables the build records for the functions (none of them secret). */
export const RECORDED = ['SITE_URL', 'PREVIEW_OF', 'PREVIEW_COMMIT', 'PAYMENTS', 'DEPLOY_CONTEXT'] as const;

/** The deploy record's variables as the build worked them out. */
export function readDeployRecord(distDir: string): Record<string, string> {
  try {
    const record = JSON.parse(readFileSync(path.join(distDir, DEPLOY_RECORD), 'utf8')) as unknown;
    if (!record || typeof record !== 'object') return {};
    const recorded = new Set<string>(RECORDED);
    return Object.fromEntries(
      Object.entries(record).filter((entry): entry is [string, string] => recorded.has(entry[0]) && typeof entry[1] === 'string'),
    );
  } catch {
    return {};
  }
}

/**
 * The environment a function instance starts with: the build's mapping of what the platform gives it
 * at run time, with the deploy record over it (the build worked the address, preview mode and payments
 * out from the deploy's own variables, which a function does not see; a preview's database follows
 * from the recorded DEPLOY_CONTEXT).
 */
export function functionEnvironment(env: Env, distDir: string): Env {
  const record = readDeployRecord(distDir);
  return { ...buildEnvironment({ ...env, ...record }), ...record };
}

/**
 * An answer as Netlify's CDN should keep it: one a shared cache may store (`public` with `s-maxage`,
 * the pages' and public answers' policy, functions/platform/http/cache-control.ts) is also told so in
 * `Netlify-CDN-Cache-Control`, which Netlify's CDN reads for function answers and strips before the
 * browser, with `durable` so every edge node shares one copy and a hit costs no call. Anything else
 * (private, no-store, errors) is left as it is: Netlify never stores a function's answer unasked.
 */
export function forNetlifyCdn(response: Response): Response {
  const policy = response.headers.get('cache-control') ?? '';
  if (!/^public\b/.test(policy) || !/\bs-maxage=\d+/.test(policy) || response.status >= 400) return response;
  const cdn = policy
    .split(',')
    .map((part) => part.trim())
    .filter((part) => /^(s-maxage|stale-while-revalidate)=/.test(part));
  const value = ['public', 'durable', ...cdn].join(', ');
  try {
    // In place: the app's answers have headers of their own (copying the answer halved the throughput of the busiest).
    response.headers.set('Netlify-CDN-Cache-Control', value);
    return response;
  } catch {
    // Headers a fetch gave back cannot change: a copy then.
    const answer = new Response(response.body, response);
    answer.headers.set('Netlify-CDN-Cache-Control', value);
    return answer;
  }
}
