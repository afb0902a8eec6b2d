/**
 * The browser's one result shape for API calls (ApiResult) and the one way a typed call is read into
 * it (call, failure). Alone in its module, free of the member's token and session, so that the
 * site's forms, sent from every page's shell script, share it without loading the rest of the API
 * module (api-fetch.ts and api.ts re-export all of it). Browser only.
 */
import type { ClientResponse } from 'hono/client';
import type { AccessLevel } from '#shared/access.ts';

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
   * the server answered (callers tell a 409 conflict or a 422 apart by it; no status: no answer at
   * all); `code` its error code (or `canceled`: the person stopped it, an upload they cancelled).
   */
  | { ok: false; kind: 'error'; message: string; status?: number; code?: string; fields?: Record<string, string[]> };

export type ApiFailure = Exclude<ApiResult<unknown>, { ok: true }>;

/** The API's one error body, `{ error: { code, message, ... } }`, as far as a failed answer has one. */
interface ErrorBody {
  error?: { code?: string; message?: string; requiredLevel?: AccessLevel; fields?: Record<string, string[]> };
}

export const GENERIC_ERROR = 'Something went wrong. Please try again.';

/**
 * Why a call failed, from its status and the API's error body. A 5xx says the generic text, unless
 * `serverText` keeps the server's own (the public forms have always shown it).
 */
export async function failure(res: { status: number; json(): Promise<unknown> }, serverText = false): Promise<ApiFailure> {
  const body = (await res.json().catch(() => undefined)) as ErrorBody | undefined;
  const message = (typeof body?.error?.message === 'string' && body.error.message) || GENERIC_ERROR;
  if (res.status === 401) return { ok: false, kind: 'signed-out' };
  if (res.status === 403)
    return { ok: false, kind: 'forbidden', ...(body?.error?.requiredLevel ? { requiredLevel: body.error.requiredLevel } : {}) };
  if (res.status === 404) return { ok: false, kind: 'not-found', message };
  return {
    ok: false,
    kind: 'error',
    message: res.status >= 500 && !serverText ? GENERIC_ERROR : message,
    status: res.status,
    ...(body?.error?.code ? { code: body.error.code } : {}),
    ...(body?.error?.fields ? { fields: body.error.fields } : {}),
  };
}

/** Thrown by the member clients' fetch when nobody is signed in: `call` answers signed-out without a request. */
export class SignedOut extends Error {}

/** What one call sends beyond its typed request (path, body, query): an abort signal, its own bearer token. */
export interface CallInit {
  signal?: AbortSignal;
  /** A token the caller holds (the auth client's fresh session) instead of the stored one. */
  token?: string;
  /** A 5xx's message as the server wrote it, instead of the generic text (see `failure`). */
  serverText?: boolean;
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
  { signal, token, serverText }: CallInit = {},
): Promise<ApiResult<DataOf<R>>> {
  type Data = DataOf<R>;
  let res: R;
  try {
    res = await send({ headers: token ? { authorization: `Bearer ${token}` } : {}, init: signal ? { signal } : {} });
  } catch (err) {
    if (err instanceof SignedOut) return { ok: false, kind: 'signed-out' };
    if (signal?.aborted) throw err;
    // No answer at all (offline, the connection cut after the retries): no status.
    return { ok: false, kind: 'error', message: GENERIC_ERROR };
  }
  try {
    if (!res.ok) return await failure(res, serverText);
    if (res.status === 204) return { ok: true, data: null as Data };
    return { ok: true, data: (await res.json()) as Data };
  } catch (err) {
    if (signal?.aborted) throw err;
    return { ok: false, kind: 'error', message: GENERIC_ERROR, status: res.status };
  }
}
