/** Request helpers shared by routes: the client's address and validated bodies. */
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import { z } from 'zod';
import { AppError, fieldErrors } from '../errors.ts';

/**
 * The client's IP address. Behind `trustProxy` proxies, the entry that many hops from the right of
 * X-Forwarded-For (the one our nearest trusted proxy saw); otherwise the socket's peer address.
 */
export function clientIp(c: Context, trustProxy: number): string {
  if (trustProxy > 0) {
    const hops = (c.req.header('x-forwarded-for') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    const entry = hops[hops.length - trustProxy];
    if (entry) return entry.slice(0, 64);
  }
  const env = c.env as Partial<HttpBindings> | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'unknown';
}

/**
 * Reads a JSON or form-encoded body and validates it. Wrong content type: 415; unreadable JSON:
 * 400; invalid fields: 422 with the fields named.
 */
export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  let raw: unknown;
  if (type === 'application/json') {
    try {
      raw = await c.req.json();
    } catch {
      throw new AppError('bad_request', 'The request body is not valid JSON.');
    }
  } else if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') {
    raw = Object.fromEntries(
      Object.entries(await c.req.parseBody()).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
  } else {
    throw new AppError('unsupported_media_type', 'Send the request body as JSON (Content-Type: application/json).');
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new AppError('validation_failed', 'Some fields are not valid.', fieldErrors(parsed.error));
  return parsed.data;
}

/** Whether the request came from an HTML form (so the answer should be a page, not JSON). */
export function isFormPost(c: Context): boolean {
  const type = c.req.header('content-type') ?? '';
  return type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data');
}

const CONTROL = /[\u0000-\u001f\u007f]/;

/** A trimmed one-line text field: no line breaks or control characters (no header injection). */
export const singleLine = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine((v) => !CONTROL.test(v), `${label} must be a single line of text`);

/** A trimmed, lower-cased email address. */
export const emailAddress = z
  .string({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .max(254, 'Email must be at most 254 characters')
  .pipe(z.email('Please enter a valid email address'));

/** The hidden field bots fill in; people never see it. */
export const honeypot = z.string().max(500).optional();
