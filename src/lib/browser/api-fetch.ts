/**
 * How the API module's calls go out (api.ts re-exports all of it): the member's bearer token, JSON
 * answers, and the browser's one result shape for API calls (ApiResult). Bodies and queries go
 * through the typed clients (`$post({ json, param, query })`), so each is checked against its route's
 * schema. The token comes from the session the auth client
 * keeps (session.ts), read without loading that client: it is half of a detail page's JavaScript
 * budget. Only a token that has already expired (a tab left asleep) loads the client, to refresh it.
 * Kept apart from the typed clients (api.ts), which only islands and page scripts that call the
 * member API load. Browser only.
 */
import type { ClientResponse } from 'hono/client';
import type { AccessLevel } from '#shared/access.ts';
import { plainHeaders } from './public-fetch.ts';
import { SESSION_EVENT, storedSession } from './session.ts';
import { sendAction } from './write-fetch.ts';

/** What every API call in the browser answers: the data, or why not. */
export type ApiResult<T> =
  | { ok: true; data: T }
  /** No session, or the server did not accept it (401). */
  | { ok: false; kind: 'signed-out' }
  /** Signed in but the level is too low (403). */
  | { ok: false; kind: 'forbidden'; requiredLevel?: AccessLevel }
  /** Unknown item, lesson or file (404). */
  | { ok: false; kind: 'not-found'; message: string }
  /**
   * Network failure, 5xx or anything unexpected: worth a retry. `status` is the HTTP status when
   * the server answered (callers tell a 409 conflict or a 422 apart by it); `code` its error code
   * (or `canceled`: the person stopped it, an upload they cancelled).
   */
  | { ok: false; kind: 'error'; message: string; status?: number; code?: string; fields?: Record<string, string[]> };

export type ApiFailure = Exclude<ApiResult<unknown>, { ok: true }>;

/** The API's one error body, `{ error: { code, message, ... } }`, as far as a failed answer has one. */
interface ErrorBody {
  error?: { code?: string; message?: string; requiredLevel?: AccessLevel; fields?: Record<string, string[]> };
}

const GENERIC = 'Something went wrong. Please try again.';

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

/** Why a call failed, from its status and the API's error body. */
export async function failure(res: { status: number; json(): Promise<unknown> }): Promise<ApiFailure> {
  const body = (await res.json().catch(() => undefined)) as ErrorBody | undefined;
  const message = body?.error?.message ?? GENERIC;
  if (res.status === 401) return { ok: false, kind: 'signed-out' };
  if (res.status === 403)
    return { ok: false, kind: 'forbidden', ...(body?.error?.requiredLevel ? { requiredLevel: body.error.requiredLevel } : {}) };
  if (res.status === 404) return { ok: false, kind: 'not-found', message };
  return {
    ok: false,
    kind: 'error',
    message: res.status >= 500 ? GENERIC : message,
    status: res.status,
    ...(body?.error?.code ? { code: body.error.code } : {}),
    ...(body?.error?.fields ? { fields: body.error.fields } : {}),
  };
}

/** Thrown by `memberFetch` when nobody is signed in: `call` answers signed-out without a request. */
class SignedOut extends Error {}

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

/** What one call sends beyond its typed request (path, body, query): an abort signal, its own bearer token. */
export interface CallInit {
  signal?: AbortSignal;
  /** A token the caller holds (the auth client's fresh session) instead of the stored one. */
  token?: string;
}

/** A typed answer, whatever its status and format: what `call` reads the data of. */
type Answer = { ok: boolean; status: number; json(): Promise<unknown> };
/** The data of a typed answer: its JSON, or null for 204 No Content (never for a plain Response). */
type DataOf<R> = R extends ClientResponse<infer T, infer _Status, infer _Format> ? T : never;

/**
 * One typed call: `send` makes the request through a typed client, its body and query checked against
 * the route's schemas, with the options given (headers and init). Answers the data or why not; never
 * throws, but an aborted call rejects, so a caller that gave up ignores it.
 */
export async function call<R extends Answer>(
  send: (options: { headers: Record<string, string>; init: RequestInit }) => Promise<R>,
  { signal, token }: CallInit = {},
): Promise<ApiResult<DataOf<R>>> {
  type Data = DataOf<R>;
  let res: R;
  try {
    res = await send({ headers: token ? { authorization: `Bearer ${token}` } : {}, init: signal ? { signal } : {} });
  } catch (err) {
    if (err instanceof SignedOut) return { ok: false, kind: 'signed-out' };
    if (signal?.aborted) throw err;
    // No answer at all (offline, the connection cut after the retries): no status.
    return { ok: false, kind: 'error', message: GENERIC };
  }
  try {
    if (!res.ok) return await failure(res);
    if (res.status === 204) return { ok: true, data: null as Data };
    return { ok: true, data: (await res.json()) as Data };
  } catch (err) {
    if (signal?.aborted) throw err;
    return { ok: false, kind: 'error', message: GENERIC, status: res.status };
  }
}
