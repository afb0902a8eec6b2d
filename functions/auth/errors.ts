/**
 * Errors of the auth API in Supabase Auth's (GoTrue's) own shape, so supabase-js classifies them as
 * it does against the hosted service: `{ code, message }` with the `X-Supabase-Api-Version` header
 * when the request asked for API version 2024-01-01 or later, else the legacy
 * `{ code: <status>, error_code, msg }`. Codes and messages are GoTrue's exact strings.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export class AuthError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly extra?: Record<string, unknown>;
  constructor(status: ContentfulStatusCode, code: string, message: string, extra?: Record<string, unknown>) {
    super(message);
    this.name = 'AuthError';
    this.status = status;
    this.code = code;
    if (extra) this.extra = extra;
  }
}

const API_VERSION = '2024-01-01';

/** Whether the request asked for the 2024-01-01 error format (supabase-js always does). */
function wantsVersioned(c: Context): boolean {
  const asked = c.req.header('x-supabase-api-version');
  if (!asked || !/^\d{4}-\d{2}-\d{2}$/.test(asked)) return false;
  return asked >= API_VERSION;
}

export function authErrorResponse(c: Context, err: AuthError): Response {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', 'x-sb-error-code': err.code };
  if (wantsVersioned(c)) {
    headers['X-Supabase-Api-Version'] = API_VERSION;
    return c.json({ code: err.code, message: err.message, ...err.extra }, err.status, headers);
  }
  return c.json({ code: err.status, error_code: err.code, msg: err.message, ...err.extra }, err.status, headers);
}

export const validation = (message: string) => new AuthError(400, 'validation_failed', message);
export const invalidCredentials = () => new AuthError(400, 'invalid_credentials', 'Invalid login credentials');
export const otpExpired = (message = 'Email link is invalid or has expired') => new AuthError(403, 'otp_expired', message);
export const overRequestLimit = () => new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached');
export const mailCooldown = (seconds: number) =>
  new AuthError(429, 'over_email_send_rate_limit', `For security purposes, you can only request this after ${seconds} seconds.`);
