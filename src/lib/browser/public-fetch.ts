/**
 * The API module's fetch for public routes (api.ts re-exports it): JSON accepted, no token; a write
 * is one user action with its Idempotency-Key and retries (write-fetch.ts). Alone in its module so
 * that the site's forms, posted from every page's shell script, load nothing else of the API module
 * (the token, the typed clients). Browser only.
 */
import { sendAction } from './write-fetch.ts';

/** A request's headers as a plain object (lower-case names), as fetch is called everywhere here. */
export function plainHeaders(init: RequestInit): Record<string, string> {
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  return headers;
}

/** The public clients' fetch: JSON accepted, no token. */
export function publicFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  return sendAction(input, { ...init, headers: { ...plainHeaders(init), accept: 'application/json' } });
}
