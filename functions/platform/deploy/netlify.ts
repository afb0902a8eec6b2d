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

/** Whether Netlify's CONTEXT names a preview (a Deploy Preview or a branch deploy). */
export const isPreviewContext = (env: Env): boolean => PREVIEW_CONTEXTS.has(env.CONTEXT ?? '');

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
    PREVIEW_OF: preview ? (env.HEAD ?? env.BRANCH) : undefined,
    PREVIEW_COMMIT: preview ? env.COMMIT_REF : undefined,
    PAYMENTS: preview ? 'test' : undefined,
  });
}

/**
 * The database a deploy uses: Netlify DB (Neon) gives each Deploy Preview a branch of its own under
 * NETLIFY_DATABASE_URL (pooled) and NETLIFY_DATABASE_URL_UNPOOLED (direct), so in a preview those win
 * over DATABASE_URL, which is production's; elsewhere they fill in only when DATABASE_URL is unset.
 */
function databaseVariables(env: Env): Record<string, string> {
  if (!env.NETLIFY_DATABASE_URL) return {};
  const netlify = present({ DATABASE_URL: env.NETLIFY_DATABASE_URL, DATABASE_DIRECT_URL: env.NETLIFY_DATABASE_URL_UNPOOLED });
  if (isPreviewContext(env)) return { DATABASE_DIRECT_URL: '', ...netlify };
  return env.DATABASE_URL ? {} : netlify;
}

/** The environment a Netlify build runs the app's steps with: the deploy's variables under the ones set on purpose. */
export function buildEnvironment(env: Env): Env {
  const database = databaseVariables(env);
  return { ...deployVariables(env), ...env, ...(isPreviewContext(env) ? database : { ...database, ...present(env) }) };
}

/** The deploy record's variables (SITE_URL, PREVIEW_OF, PREVIEW_COMMIT, PAYMENTS) as the build worked them out. */
export function readDeployRecord(distDir: string): Record<string, string> {
  try {
    const record = JSON.parse(readFileSync(path.join(distDir, DEPLOY_RECORD), 'utf8')) as unknown;
    if (!record || typeof record !== 'object') return {};
    return Object.fromEntries(Object.entries(record).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}

/** The environment a function instance starts with: the deploy record, then what the platform says, then what was set on purpose. */
export function functionEnvironment(env: Env, distDir: string): Env {
  return buildEnvironment({ ...readDeployRecord(distDir), ...env });
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
