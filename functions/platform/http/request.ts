/**
 * Request helpers shared by routes: the client's address, validated bodies, queries and path ids, and the zod
 * building blocks every free-text field, token and id goes through before any query runs.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { SlugSchema } from '#shared/content/schema.ts';
import { withoutInvisible } from '#shared/visible-text.ts';
import { AppError, fieldErrors } from '../errors.ts';
import type { AppContext } from './context.ts';
import { requestHeader } from './http.ts';

/**
 * The client's IP address. Behind `trustProxy` proxies, the entry that many hops from the right of
 * X-Forwarded-For (the one our nearest trusted proxy saw), when it is an IP address; otherwise the
 * socket's peer address, or in a serverless function the address its platform reports.
 */
export function clientIp(c: AppContext, trustProxy: number): string {
  if (trustProxy > 0) {
    const hops = (requestHeader(c, 'x-forwarded-for') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const entry = hops[hops.length - trustProxy];
    if (entry && isIP(entry)) return entry;
  }
  return c.env?.incoming?.socket?.remoteAddress ?? c.env?.clientAddress ?? 'unknown';
}

/** `?limit`: 1 to 50, default 10 (what the admin dashboard sends). */
export const LimitParam = z.coerce
  .number({ error: 'limit must be a number' })
  .int('limit must be a whole number')
  .min(1, 'limit must be at least 1')
  .max(50, 'limit must be at most 50')
  .default(10);

const Uuid = z.uuid();

/** A path parameter that must be a row id: anything else is the 404 `notFound` (no query runs). */
export function pathId(c: AppContext, name: string, notFound: string): string {
  const parsed = Uuid.safeParse(c.req.param(name));
  if (!parsed.success) throw new AppError('not_found', notFound);
  return parsed.data;
}

/** A route parameter that must be a slug; anything else is an unknown item (`${what} not found`). */
export function slugParam(c: AppContext, name: string, what: string): string {
  const parsed = SlugSchema.safeParse(c.req.param(name));
  if (!parsed.success) throw new AppError('not_found', `${what} not found`);
  return parsed.data;
}

/** Body types a route accepts; JSON unless it also serves plain HTML forms. */
export type BodyKind = 'json' | 'form';

const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

function mediaType(c: AppContext): string {
  return (requestHeader(c, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

async function readForm(c: AppContext): Promise<Record<string, string>> {
  let parsed: Record<string, unknown>;
  try {
    parsed = await c.req.parseBody();
  } catch {
    // A multipart body with a missing or broken boundary, or bytes that are not what the type says.
    throw new AppError('bad_request', 'The request body could not be read as the form data its Content-Type declares.');
  }
  return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/**
 * Reads a body and validates it. JSON by default; `accept: ['json', 'form']` also takes HTML form
 * posts. Another content type: 415; unreadable bytes: 400; invalid fields: 422 with the fields named.
 * Routes declare it with `jsonBody` (validators.ts); a route that streams its own body calls it for its JSON form.
 */
export async function readBody<S extends z.ZodType>(
  c: AppContext,
  schema: S,
  { accept = ['json'] }: { accept?: BodyKind[] } = {},
): Promise<z.output<S>> {
  const type = mediaType(c);
  let raw: unknown;
  if (type === 'application/json' && accept.includes('json')) {
    try {
      raw = await c.req.json();
    } catch {
      throw new AppError('bad_request', 'The request body is not valid JSON.');
    }
  } else if (FORM_TYPES.has(type) && accept.includes('form')) {
    raw = await readForm(c);
  } else {
    const wanted = accept.includes('form') ? 'JSON or form data' : 'JSON (Content-Type: application/json)';
    throw new AppError('unsupported_media_type', `Send the request body as ${wanted}.`);
  }
  return validate(schema, raw);
}

function validate<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const parsed = WellFormed.pipe(schema).safeParse(raw);
  if (!parsed.success) throw new AppError('validation_failed', 'Some fields are not valid.', { fields: fieldErrors(parsed.error) });
  return parsed.data;
}

/** Whether the request came from an HTML form (so the answer should be a page, not JSON). */
export function isFormPost(c: AppContext): boolean {
  return FORM_TYPES.has(mediaType(c));
}

// ---------------------------------------------------------------------------------------------
// Field schemas. Postgres refuses NUL in text and other control characters have no business in
// user text, so they are refused here, with a field error, before anything reaches a query.

/** Any control character (C0, DEL, C1). */
export const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Control characters other than tab, line feed and carriage return. */
export const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** `field`, given text without the INVISIBLE characters (`#shared/visible-text.ts`: bidirectional controls, zero-width spaces), anything else reaching the field's own checks and messages as sent. */
export const visibleText = <T extends z.ZodType>(field: T) => z.preprocess((v) => (typeof v === 'string' ? withoutInvisible(v) : v), field);

/** Deepest nesting a JSON body may have: no form sends more, and deeper values would strain every recursive check. */
export const MAX_BODY_DEPTH = 32;

/** Message for text holding a lone surrogate (no font can show it and the database refuses it). */
export const ILL_FORMED_TEXT = 'contains a character that is not valid text';

/**
 * The first reason a parsed JSON body cannot be taken whatever its route: a string (a value or a
 * key) that is not well-formed UTF-16 (a lone surrogate such as `"\ud800"`, which JSON allows and
 * Postgres refuses), or nesting deeper than MAX_BODY_DEPTH. Walked without recursion, so no body
 * can exhaust the stack.
 */
export function bodyProblem(value: unknown): { path: (string | number)[]; message: string } | undefined {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (typeof next.value === 'string') {
      if (!next.value.isWellFormed()) return { path: next.path, message: `${next.path.join('.') || 'body'} ${ILL_FORMED_TEXT}` };
      continue;
    }
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.path.length >= MAX_BODY_DEPTH)
      return { path: next.path, message: `The body is nested more than ${MAX_BODY_DEPTH} levels deep` };
    for (const [key, item] of Object.entries(next.value)) {
      if (!key.isWellFormed()) return { path: [...next.path, '_key'], message: `A key ${ILL_FORMED_TEXT}` };
      stack.push({ value: item, path: [...next.path, Array.isArray(next.value) ? Number(key) : key] });
    }
  }
  return undefined;
}

/**
 * Any body, refused as a whole when one of its strings is not well-formed or it is nested too
 * deeply: checked before the route's own schema, so no field of any route carries such text to the
 * database.
 */
export const WellFormed = z.unknown().superRefine((value, ctx) => {
  const problem = bodyProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
});

/** A trimmed one-line text field: no line breaks or control characters (no header injection). */
export const singleLine = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine((v) => !CONTROL.test(v), `${label} must be a single line of text`);

/** A trimmed multi-line text field: line breaks and tabs are fine, other control characters not. */
export const multiLine = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine((v) => !CONTROL_IN_TEXT.test(v), `${label} contains characters that are not allowed`);

/** A trimmed, lower-cased email address. */
export const emailAddress = z
  .string({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .max(254, 'Email must be at most 254 characters')
  .pipe(z.email('Please enter a valid email address'));

/** A signed token from a link (JWT characters only). */
export const linkToken = z
  .string({ error: 'The link is incomplete' })
  .min(1, 'The link is incomplete')
  .max(2048, 'The link is not valid')
  .regex(/^[A-Za-z0-9_.-]+$/, 'The link is not valid');

/** A site path such as the page a form was sent from: printable ASCII, one leading slash. */
export const sitePath = z
  .string()
  .trim()
  .max(200)
  .regex(/^\/(?![/\\])[\u0021-\u005b\u005d-\u007e]*$/, 'Must be a page path');

/** A slug or a UUID naming an item. */
export const itemRef = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(120)
    .regex(/^[A-Za-z0-9-]+$/, `${label} is not valid`);

/** The hidden field bots fill in; people never see it. */
export const honeypot = z.string().max(500).optional();
