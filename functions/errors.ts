/**
 * The API's one error shape, `{ error: { code, message, fields? } }`, with a closed set of codes.
 * Domain code throws AppError; `onError` maps it (and anything unexpected) to a response.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import type { Logger } from './lib/logger.ts';

export const ERROR_STATUS = {
  bad_request: 400,
  validation_failed: 422,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields?: FieldErrors;
  constructor(code: ErrorCode, message: string, fields?: FieldErrors) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    if (fields) this.fields = fields;
  }
  get status(): ContentfulStatusCode {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (message = 'Not found') => new AppError('not_found', message);

/** Field errors keyed by dotted path, from a zod error. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

export function errorBody(code: ErrorCode, message: string, fields?: FieldErrors) {
  return { error: { code, message, ...(fields ? { fields } : {}) } };
}

/** Hono onError handler: known errors keep their code, everything else is logged and becomes 500. */
export function createErrorHandler(logger: Logger) {
  return (err: Error, c: Context) => {
    if (err instanceof AppError) return c.json(errorBody(err.code, err.message, err.fields), err.status);
    if (err instanceof HTTPException) {
      const status = err.status;
      const code = (Object.entries(ERROR_STATUS).find(([, s]) => s === status)?.[0] ?? 'bad_request') as ErrorCode;
      return c.json(errorBody(code, err.message || 'Bad request'), ERROR_STATUS[code]);
    }
    logger.error({ err, path: c.req.path, method: c.req.method }, 'unhandled error');
    return c.json(errorBody('internal', 'Something went wrong on our side. Please try again.'), 500);
  };
}
