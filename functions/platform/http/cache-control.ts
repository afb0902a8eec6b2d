/**
 * What browsers and shared caches (a CDN in front) may keep, in one place. The rule: an answer that
 * is the same for every caller (anonymous pages, the public content API, assets) may be stored by a
 * shared cache for at most the configured staleness bound (CDN_STALENESS_SECONDS); an answer that
 * depends on the caller (any use of Authorization, the gated API, account data, feeds, signed files,
 * the auth API) is `private, no-store` with `Vary: Authorization` (`markPrivate`), and every API
 * answer that says nothing else is `no-store`. Browsers always revalidate pages and API answers
 * (`max-age=0`): the bound is a shared cache's, never a member's own screen.
 */

/** Hashed build assets and uploaded media: their names change whenever their bytes do. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Per-caller answers: never stored anywhere (markPrivate adds `Vary: Authorization`). */
export const PRIVATE_NO_STORE = 'private, no-store';
/** The default of every API answer that names no policy of its own, and of error pages. */
export const NO_STORE = 'no-store';
/** Public, but every cache asks the origin each time (ETag, 304). */
export const REVALIDATE = 'public, max-age=0, must-revalidate';

/** The largest staleness bound the configuration accepts, in seconds. */
export const MAX_CDN_STALENESS_SECONDS = 60;

/**
 * Cache-Control for answers that are the same for everyone, with a staleness bound of `seconds`:
 * browsers revalidate every time; a shared cache keeps the answer fresh for half the bound
 * (`s-maxage`) and may serve it stale while it fetches a new copy for the other half
 * (`stale-while-revalidate`), so what it serves was current at most `seconds` ago. 0: shared caches
 * revalidate every time too.
 */
export function sharedCacheControl(seconds: number): string {
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_CDN_STALENESS_SECONDS)
    throw new RangeError(`The staleness bound must be 0-${MAX_CDN_STALENESS_SECONDS} whole seconds, not ${seconds}.`);
  if (seconds === 0) return REVALIDATE;
  const fresh = Math.ceil(seconds / 2);
  const stale = seconds - fresh;
  return `public, max-age=0, s-maxage=${fresh}${stale ? `, stale-while-revalidate=${stale}` : ''}`;
}

/** Whether an answer with this Cache-Control is per caller (refused by the public answer cache). */
export function isPerCaller(cacheControl: string | undefined): boolean {
  return /\bprivate\b/i.test(cacheControl ?? '');
}
