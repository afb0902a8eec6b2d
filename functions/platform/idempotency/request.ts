/**
 * What identifies a keyed write: the client's Idempotency-Key, checked, and the request's
 * fingerprint (method, path and query, media type and body), which a retry under the same key must
 * match. See index.ts for the rules.
 */
import { createHash } from 'node:crypto';
import { AppError } from '../errors.ts';
import type { AppContext } from '../http/context.ts';
import { requestHeader } from '../http/http.ts';

/** The request header, as Stripe and the IETF draft name it. */
export const IDEMPOTENCY_KEY = 'idempotency-key';
/** Stripe's limit: room for a UUID or any client's own scheme. */
export const MAX_KEY_LENGTH = 255;

/** Visible ASCII only: no spaces (two headers joined by a comma and a space are refused too) or controls. */
const KEY = new RegExp(`^[\\x21-\\x7e]{1,${MAX_KEY_LENGTH}}$`);

/** The request's key; undefined when it sent none; 400 when it is empty, too long or holds other characters. */
export function idempotencyKeyOf(c: AppContext): string | undefined {
  const value = requestHeader(c, IDEMPOTENCY_KEY);
  if (value === undefined) return undefined;
  if (!KEY.test(value)) {
    throw new AppError('bad_request', `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters (a UUID will do).`);
  }
  return value;
}

/** `multipart/form-data` of `multipart/form-data; boundary=…`, lower case. */
function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/**
 * A body's bytes as they identify it. A browser makes a new multipart boundary every time it sends
 * a form, its retries included, so the boundary is taken out first.
 */
function bodyBytes(bytes: ArrayBuffer, contentType: string | undefined): Buffer {
  const buffer = Buffer.from(bytes);
  const boundary = /;\s*boundary="?([^";]+)"?/i.exec(contentType ?? '')?.[1];
  if (!boundary || !mediaType(contentType).startsWith('multipart/')) return buffer;
  return Buffer.from(buffer.toString('latin1').split(boundary).join(''), 'latin1');
}

/**
 * SHA-256 of the method, path and query, media type and body. A route that streams its own body
 * (uploads, support messages with an attachment) is fingerprinted without it: reading it here would
 * hold up to 25 MB before the route's own checks, and its multipart bytes differ on every send. Its
 * key still belongs to one caller, who makes a new one for every action.
 */
export async function fingerprintOf(c: AppContext, streamsOwnBody: boolean): Promise<string> {
  const url = new URL(c.req.url);
  const contentType = requestHeader(c, 'content-type');
  const hash = createHash('sha256').update(`${c.req.method}\n${url.pathname}${url.search}\n${mediaType(contentType)}\n`);
  if (!streamsOwnBody) hash.update(bodyBytes(await c.req.arrayBuffer(), contentType));
  return hash.digest('base64url');
}

/** The key a write passes on to an outside service (Stripe): one per caller and key, whatever either holds. */
export function derivedKey(purpose: string, scope: string, key: string): string {
  return `${purpose}-${createHash('sha256').update(`${scope}\n${key}`).digest('base64url')}`;
}
