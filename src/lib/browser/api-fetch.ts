/**
 * How the API module's calls go out (api.ts re-exports all of it): the member's bearer token, JSON
 * answers, and the browser's one result shape for API calls (ApiResult, from api-result.ts). Bodies and queries go
 * through the typed clients (`$post({ json, param, query })`), so each is checked against its route's
 * schema. The token comes from the session the auth client
 * keeps (session.ts), read without loading that client: it is half of a detail page's JavaScript
 * budget. Only a token that has already expired (a tab left asleep) loads the client, to refresh it.
 * Kept apart from the typed clients (api.ts), which only islands and page scripts that call the
 * member API load. Browser only.
 */
import { SignedOut } from './api-result.ts';
import { plainHeaders } from './public-fetch.ts';
import { SESSION_EVENT, storedSession } from './session.ts';
import { sendAction } from './write-fetch.ts';

export { call, failure, GENERIC_ERROR, type ApiFailure, type ApiResult, type CallInit } from './api-result.ts';

/** The current access token; an expired one is refreshed first by the auth client, loaded only then. */
export async function bearer(): Promise<string | undefined> {
  const session = storedSession();
  if (!session) return undefined;
  if (!session.expiresAt || session.expiresAt * 1000 > Date.now() + 5_000) return session.accessToken;
  const { authClient } = await import('./auth/client.ts');
  const { data } = await authClient().auth.getSession();
  window.dispatchEvent(new Event(SESSION_EVENT));
  return data.session?.access_token;
}

/**
 * The member clients' fetch: the member's bearer token (unless the call sends its own) and JSON
 * accepted; a write is one user action with its Idempotency-Key and retries (write-fetch.ts).
 */
export async function memberFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const headers = plainHeaders(init);
  if (!headers.authorization) {
    const token = await bearer();
    if (!token) throw new SignedOut();
    headers.authorization = `Bearer ${token}`;
  }
  return sendAction(input, { ...init, headers: { ...headers, accept: 'application/json' } });
}
