/**
 * The route chain's validators: a route declares its query, path parameters and body with these
 * (`.post('/x', guards…, pathIds(…), jsonBody(Schema), (c) => … c.req.valid('json'))`), so the
 * handler reads checked values and `hono/client` types the browser's call from the same schemas.
 * They answer as request.ts always has (415, 400, 422 with the fields, the WellFormed check), which
 * is why Hono's stock validators are not used for bodies and queries: its json validator reads any
 * `+json` type and takes a body of another type as `{}`, and its query validator makes repeated
 * parameters lists. Place them after the route's guards, so a caller who may not ask hears 401 or
 * 403 whatever the input holds.
 */
import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { AppError, fieldErrors, type ErrorCode } from '../errors.ts';
import type { AppContext, AppEnv } from './context.ts';
import { linkToken, pathId, readBody, type BodyKind } from './request.ts';

/** How a query validator refuses a query: 422 'The query is not valid.' unless the route says otherwise. */
export interface QueryRefusal {
  code: ErrorCode;
  message: string;
}

const INVALID_QUERY: QueryRefusal = { code: 'validation_failed', message: 'The query is not valid.' };

/** The query string read against `schema` (unknown parameters ignored); the refusal with the fields otherwise. */
function readQuery<S extends z.ZodType>(c: AppContext, schema: S, { code, message }: QueryRefusal): z.output<S> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw new AppError(code, message, { fields: fieldErrors(parsed.error) });
  return parsed.data;
}

/** What a query validator takes from a client: each parameter as text (the first of repeated ones counts). */
export type QueryText<T> = { [K in keyof T]: string };
/** A form's fields as a client sends them: each as text. */
export type FormText<T> = { [K in keyof T]: string };

/**
 * The route's query, validated before its handler runs (`c.req.valid('query')`): the schema's
 * parameters as text are what `hono/client` asks for. 422 with the fields otherwise; parameters
 * the schema does not name are ignored unless it is strict. Place it after the route's guards.
 */
export function queryOf<S extends z.ZodType<object>>(
  schema: S,
  refusal: QueryRefusal = INVALID_QUERY,
): MiddlewareHandler<AppEnv, string, { in: { query: QueryText<z.input<S>> }; out: { query: z.output<S> } }> {
  return async (c, next) => {
    c.req.addValidatedData('query', readQuery(c, schema, refusal));
    await next();
  };
}

/**
 * The route's path parameters as `read` checks them (`c.req.valid('param')`), checked before the
 * route's body or query validator, so a malformed id or slug is its 404 whatever the body holds.
 */
export function pathParams<P extends Record<string, string>>(
  read: (c: AppContext) => P,
): MiddlewareHandler<AppEnv, string, { in: { param: { [K in keyof P]: string } }; out: { param: P } }> {
  return async (c, next) => {
    c.req.addValidatedData('param', read(c));
    await next();
  };
}

/** `pathParams` for row ids: each a UUID, or the 404 message named for it. */
export function pathIds<N extends string>(notFound: Record<N, string>) {
  const names = Object.entries(notFound) as [N, string][];
  return pathParams((c) => Object.fromEntries(names.map(([name, message]) => [name, pathId(c, name, message)])) as Record<N, string>);
}

/** How a route takes its body: the kinds it accepts, and when it has none to read. */
export interface BodyOptions {
  /** JSON unless the route also serves plain HTML forms (`['json', 'form']`). */
  accept?: BodyKind[];
  /** The request carries no body to read (a token in the query, an empty optional body): the handler sees `undefined`. */
  unless?: (c: AppContext) => boolean;
}

/** A body validator's types: `In` is what `hono/client` asks the browser for, `Out` what the handler reads. */
export type BodyInput<In, Out> = { in: { json: In }; out: { json: Out } };
/** The same for a body the request may leave out (`unless`). */
type OptionalBodyInput<In, Out> = { in: { json?: In }; out: { json: Out | undefined } };

/**
 * The route's body, read and validated before its handler runs (`c.req.valid('json')`), with
 * readBody's answers (415, 400, 422 with the fields, the WellFormed check). Hono's own json
 * validator is not used: it reads any `+json` type and takes a body of another type as `{}`,
 * where these routes answer 415. Place it after the route's guards, so a caller who may not ask
 * hears 401 or 403 whatever the body holds.
 */
export function jsonBody<S extends z.ZodType>(
  schema: S,
  options: BodyOptions & { unless: (c: AppContext) => boolean },
): MiddlewareHandler<AppEnv, string, OptionalBodyInput<z.input<S>, z.output<S>>>;
export function jsonBody<S extends z.ZodType>(
  schema: S,
  options?: BodyOptions,
): MiddlewareHandler<AppEnv, string, BodyInput<z.input<S>, z.output<S>>>;
export function jsonBody<S extends z.ZodType>(
  schema: S,
  { accept, unless }: BodyOptions = {},
): MiddlewareHandler<AppEnv, string, OptionalBodyInput<z.input<S>, z.output<S>>> {
  return async (c, next) => {
    if (!unless?.(c)) c.req.addValidatedData('json', (await readBody(c, schema, { accept })) as object);
    await next();
  };
}

/**
 * A body typed at the route (`In`: what `hono/client` asks the browser for) and read by `read` only
 * when the handler asks (`await c.req.valid('json')()`, once however often it asks): for a route that
 * checks access or its own limits first, or streams its own body.
 */
export function bodyWhenAsked<In extends object, Out>(
  read: (c: AppContext) => Promise<Out>,
): MiddlewareHandler<AppEnv, string, { in: In; out: { json: () => Promise<Out> } }> {
  return async (c, next) => {
    let body: Promise<Out> | undefined;
    c.req.addValidatedData('json', () => (body ??= read(c)));
    await next();
  };
}

/**
 * `jsonBody`, read and validated only when the handler asks (`await c.req.valid('json')()`): for a
 * route whose service checks access first, so a caller below the level hears 401 or 403 whatever
 * the body holds.
 */
export const jsonBodyWhenAsked = <S extends z.ZodType>(schema: S) =>
  bodyWhenAsked<{ json: z.input<S> }, z.output<S>>((c) => readBody(c, schema));

/**
 * A mail link's token as the body carries it (the link pages' forms, JSON clients): not read when
 * the token came in the query (a one-click POST), where the handler sees `undefined`.
 */
export const linkTokenBody = jsonBody(z.object({ token: linkToken }), {
  accept: ['json', 'form'],
  unless: (c) => c.req.query('token') !== undefined,
});
