/**
 * Structured JSON logging (pino). One logger per process; modules take it as a dependency. Lines about
 * one request go through that request's child logger (`c.var.log()`), which adds its id.
 *
 * Errors go through `serializeError`: database failures are logged by query name and error code,
 * never with their SQL parameters, row values or the driver's `detail` (which quote addresses and
 * user metadata).
 */
import { DrizzleQueryError } from 'drizzle-orm';
import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

type ErrorLike = Error & Record<string, unknown>;

const isErrorLike = (value: unknown): value is ErrorLike =>
  typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string';

const isQueryError = (err: ErrorLike) => err instanceof DrizzleQueryError || err.name === 'DrizzleQueryError';

/**
 * A database driver's error (pg's or PGlite's DatabaseError: a SQLSTATE code and a severity), or any
 * error that carries a query's parameters.
 */
const isDriverError = (err: ErrorLike) =>
  (typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code) && typeof err.severity === 'string') ||
  Object.hasOwn(err, 'params') ||
  Object.hasOwn(err, 'parameters');

/** Fields of a driver error that name things (never values); `detail`, `where`, `hint` and the query are dropped. */
const DRIVER_FIELDS = ['code', 'severity', 'constraint', 'table', 'column', 'schema', 'dataType', 'routine'] as const;

const MAX_DEPTH = 8;

/** Short name of a statement: its verb and table, e.g. `insert into "profiles"`; never values. */
export function queryName(sql: string): string {
  const text = sql.replace(/\s+/g, ' ').trim();
  const verb =
    /^(select|insert into|update|delete from|with|begin|commit|rollback|savepoint|release|set|lock|listen|unlisten|notify|create|alter|drop|truncate)\b/i
      .exec(text)?.[1]
      ?.toLowerCase();
  if (!verb) return 'query';
  const table = String.raw`("[^"]{1,63}"(?:\."[^"]{1,63}")?|[a-z_][a-z0-9_$]{0,62}(?:\.[a-z_][a-z0-9_$]{0,62})?)`;
  const direct = verb === 'insert into' || verb === 'update' || verb === 'delete from' || verb === 'lock' || verb === 'truncate';
  const found = direct
    ? new RegExp(`^${verb.replace(' ', '\\s+')}\\s+(?:table\\s+)?${table}`, 'i').exec(text)?.[1]
    : verb === 'select' || verb === 'with'
      ? new RegExp(`\\bfrom\\s+${table}`, 'i').exec(text.replace(/'(?:[^']|'')*'/g, "''"))?.[1]
      : undefined;
  return found ? `${verb === 'select' ? 'select from' : verb} ${found}` : verb;
}

/** Words after which Postgres quotes a name (an identifier), not a value. */
const NAMES_BEFORE =
  /\b(relation|constraint|column|table|index|type|function|schema|database|role|sequence|operator|trigger|view|extension|encoding|savepoint|cursor|statement|channel|domain|collation|policy)\s+$/i;

/**
 * A driver's message without the values it may quote: the first line, cut before a colon (Postgres
 * puts the offending value there: `invalid input syntax for type uuid: "…"`), and quoted text that
 * does not follow an identifier's kind (`value "…" is out of range`) replaced by `"?"`.
 */
export function safeDriverMessage(message: string): string {
  const head = message.split('\n', 1)[0]!.split(': ', 1)[0]!;
  return head
    .replace(/"(?:[^"]|"")*"/g, (quoted, offset: number) => (NAMES_BEFORE.test(head.slice(0, offset)) ? quoted : '"?"'))
    .slice(0, 300);
}

/** The stack's frames under a new first line (the original first line repeats the message). */
function restack(err: ErrorLike, head: string): string {
  const frames = (typeof err.stack === 'string' ? err.stack.split('\n') : []).filter((line) => /^\s+at /.test(line));
  return [head, ...frames].join('\n');
}

function holdsDatabaseError(err: ErrorLike, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  if (isQueryError(err) || isDriverError(err)) return true;
  return [...Object.values(err), err.cause, ...(Array.isArray(err.errors) ? (err.errors as unknown[]) : [])].some(
    (v) => isErrorLike(v) && holdsDatabaseError(v, depth + 1),
  );
}

/** A copy of `err` (same prototype, so its type name stays) with database errors made safe to log. */
function scrub(err: ErrorLike, depth = 0): ErrorLike {
  const copy = (fields: Record<string, unknown>) => Object.assign(Object.create(Object.getPrototypeOf(err) as object) as ErrorLike, fields);
  const type = isQueryError(err) ? 'DrizzleQueryError' : err.name || 'Error';
  const cause = isErrorLike(err.cause) && depth < MAX_DEPTH ? scrub(err.cause, depth + 1) : undefined;
  if (isQueryError(err)) {
    const name = queryName(typeof err.query === 'string' ? err.query : '');
    const message = `Failed query: ${name}`;
    const code = isErrorLike(err.cause) && typeof err.cause.code === 'string' ? err.cause.code : undefined;
    return copy({
      message,
      stack: restack(err, `${type}: ${message}`),
      query: name,
      ...(code ? { code } : {}),
      ...(cause ? { cause } : {}),
    });
  }
  if (isDriverError(err)) {
    const message = safeDriverMessage(err.message);
    const kept = Object.fromEntries(DRIVER_FIELDS.filter((k) => typeof err[k] === 'string').map((k) => [k, err[k]]));
    return copy({ message, stack: restack(err, `${type}: ${message}`), ...kept, ...(cause ? { cause } : {}) });
  }
  const clean = (value: unknown) => (isErrorLike(value) && depth < MAX_DEPTH ? scrub(value, depth + 1) : value);
  const fields: Record<string, unknown> = { message: err.message, stack: err.stack };
  for (const [key, value] of Object.entries(err)) if (key !== 'cause') fields[key] = clean(value);
  // An AggregateError's errors (not enumerable, but pino logs them).
  if (Array.isArray(err.errors)) fields.errors = (err.errors as unknown[]).map(clean);
  return copy({ ...fields, ...(cause ? { cause } : {}) });
}

/**
 * pino's `err` serializer with database errors made safe: a drizzle query failure logs the query's
 * name (`insert into "profiles"`) and the driver's code (`23505`), the driver's message only with its
 * values removed, and never the SQL parameters or `detail`. Other errors log as pino's standard does.
 */
export function serializeError(err: unknown): unknown {
  if (!isErrorLike(err)) return err;
  return pino.stdSerializers.err(holdsDatabaseError(err) ? scrub(err) : err);
}

/** An error's message alone, made safe like `serializeError` does (for one-line warnings). */
export function errorMessage(err: unknown): string {
  const serialized = serializeError(err);
  return isErrorLike(serialized) ? serialized.message : String(err);
}

/** Serializers every logger of the product uses (pass them to a pino made elsewhere, e.g. in a test). */
export const LOG_SERIALIZERS = { err: serializeError };

/**
 * Logs to stdout through an asynchronous destination: lines written while a write is in flight are
 * coalesced into the next one, and what is left is flushed on exit. (Per-request access lines go
 * through the access log, see access-log.ts.) Tests pass their own `destination`.
 */
export function createLogger(level: string, destination: pino.DestinationStream = pino.destination({ dest: 1, sync: false })): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: LOG_SERIALIZERS,
    },
    destination,
  );
}
