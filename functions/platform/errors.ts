/**
 * The API's one error shape, `{ error: { code, message, requestId, fields? } }`, with a closed set of
 * codes. Domain code throws AppError; `onError` maps it (and anything unexpected) to a response.
 */
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import type { AppContext } from './http/context.ts';
import type { Logger } from './logger.ts';
import { abortAfterHead } from './http/respond.ts';

const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  validation_failed: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal: 500,
  unavailable: 503,
  // Idempotency-Key answers (platform/idempotency): the key came with another request; the first
  // attempt is still running (retry after Retry-After); its write committed but its answer was lost.
  idempotency_key_reused: 422,
  request_in_progress: 409,
  answer_lost: 409,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type FieldErrors = Record<string, string[]>;

export interface AppErrorOptions {
  fields?: FieldErrors;
  /** Headers the answer must carry, e.g. Retry-After on 429 or Allow on 405. */
  headers?: Record<string, string>;
  /** The access level an item needs, on 403 answers of the gated API. */
  requiredLevel?: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields?: FieldErrors;
  readonly headers?: Record<string, string>;
  readonly requiredLevel?: string;
  constructor(code: ErrorCode, message: string, { fields, headers, requiredLevel }: AppErrorOptions = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    if (fields) this.fields = fields;
    if (headers) this.headers = headers;
    if (requiredLevel) this.requiredLevel = requiredLevel;
  }
  get status(): ContentfulStatusCode {
    return ERROR_STATUS[this.code];
  }
}

/** Field errors keyed by dotted path, from a zod error. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  // A Map, so a client-named key such as "__proto__" or "constructor" is a key like any other.
  const out = new Map<string, string[]>();
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    out.set(key, [...(out.get(key) ?? []), issue.message]);
  }
  return Object.fromEntries(out);
}

/** The error body; `requestId` lets a user's report be matched with the server's log lines. */
export function errorBody(code: ErrorCode, message: string, requestId: string | undefined, fields?: FieldErrors, requiredLevel?: string) {
  return {
    error: {
      code,
      message,
      ...(requestId ? { requestId } : {}),
      ...(fields ? { fields } : {}),
      ...(requiredLevel ? { requiredLevel } : {}),
    },
  };
}

/** Answers an error in the one shape, with the request's id. */
export function errorResponse(c: AppContext, code: ErrorCode, message: string, options: AppErrorOptions = {}): Response {
  return c.json(errorBody(code, message, c.get('requestId'), options.fields, options.requiredLevel), ERROR_STATUS[code], {
    'Cache-Control': 'no-store',
    ...options.headers,
  });
}

/** The log line for a client that closed the connection mid-body. */
export const HUNG_UP = 'client closed the connection before its request arrived whole';

const codeForStatus = (status: number): ErrorCode =>
  (Object.entries(ERROR_STATUS).find(([, s]) => s === status)?.[0] ?? (status >= 500 ? 'internal' : 'bad_request')) as ErrorCode;

/**
 * Whether the client closed the connection before its request arrived whole (mid-body): reading the
 * body failed because nobody is left to answer, which is routine, not a fault of ours.
 */
function clientHungUp(c: AppContext): boolean {
  const incoming = c.env?.incoming;
  return incoming !== undefined && !incoming.complete && (incoming.readableAborted || incoming.destroyed);
}

/**
 * Hono onError handler: known errors keep their code, everything else is logged and becomes 500.
 * When the answer had already started, the failure is logged and the connection closed instead. A
 * client that hung up mid-body is one `info` line (no stack) and a 400 nobody reads, never a 5xx.
 */
export function createErrorHandler(logger: Logger) {
  return (err: Error, c: AppContext) => {
    if (c.env?.outgoing?.headersSent) return abortAfterHead(c, err);
    if (clientHungUp(c)) {
      (c.get('log')?.() ?? logger).info({ method: c.req.method, path: c.req.path }, HUNG_UP);
      return errorResponse(c, 'bad_request', 'The request did not arrive whole.');
    }
    if (err instanceof AppError) return errorResponse(c, err.code, err.message, err);
    if (err instanceof HTTPException && err.status < 500) {
      return errorResponse(c, codeForStatus(err.status), err.message || 'Bad request');
    }
    (c.get('log')?.() ?? logger).error({ err, path: c.req.path, method: c.req.method }, 'unhandled error');
    return errorResponse(c, 'internal', 'Something went wrong on our side. Please try again.');
  };
}
