/**
 * The error serializer every logger uses: a failing query logs its name and the driver's code, never
 * its parameters (addresses, user metadata) or the values Postgres quotes in messages and `detail`.
 * Runs real failing queries on PGlite, plus pg-shaped errors built by hand.
 */
import { DrizzleQueryError, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './db/client.ts';
import { authUsers } from '../auth/tables.ts';
import { createLogger, queryName, safeDriverMessage } from './logger.ts';

const EMAIL = 'jane.doe+private@example.com';
const METADATA = { full_name: 'Jane Secretname', phone: '+1 410 555 0199' };
const SECRETS = [EMAIL, 'jane.doe', 'Secretname', '555 0199', 'params'];

/** A logger like the server's, writing into an array; `log()` logs `err` and answers the parsed line. */
function capture() {
  const lines: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
  return {
    lines,
    log(err: unknown): Record<string, unknown> & { err: Record<string, unknown> } {
      logger.error({ err, path: '/api/x' }, 'unhandled error');
      return JSON.parse(lines.at(-1)!) as never;
    },
  };
}

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (err) {
    return err;
  }
  throw new Error('the query did not fail');
}

function expectClean(line: string) {
  for (const secret of SECRETS) expect(line).not.toContain(secret);
}

describe('error logging', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite', dataDir: 'memory://' }, createLogger('silent'));
    await database.db.insert(authUsers).values({ email: EMAIL, userMetadata: METADATA });
  }, 60_000);
  afterAll(() => database?.close());

  it('logs a unique violation by query name and code, without the address or metadata', async () => {
    const err = await failure(() => database.db.insert(authUsers).values({ email: EMAIL, userMetadata: METADATA }));
    expect(err).toBeInstanceOf(DrizzleQueryError);
    // What the default serializer would have printed:
    expect(String((err as Error).message)).toContain(EMAIL);
    const { lines, log } = capture();
    const line = log(err);
    expectClean(lines.join(''));
    expect(line.level).toBe('error');
    expect(line.err.type).toBe('DrizzleQueryError');
    expect(line.err.query).toBe('insert into "auth_users"');
    expect(line.err.code).toBe('23505');
    expect(line.err.message).toBe(
      'Failed query: insert into "auth_users": duplicate key value violates unique constraint "auth_users_email_key"',
    );
    expect(line.err.stack).toMatch(/^DrizzleQueryError: Failed query: insert into "auth_users"\n\s+at /);
    expect(line.err).not.toHaveProperty('params');
    expect(line.err).not.toHaveProperty('detail');
  });

  it('drops the value Postgres quotes in a message (invalid input syntax)', async () => {
    const err = await failure(() =>
      database.db
        .select()
        .from(authUsers)
        .where(eq(authUsers.id, `${EMAIL} not a uuid`)),
    );
    const { lines, log } = capture();
    const line = log(err);
    expectClean(lines.join(''));
    expect(line.err.code).toBe('22P02');
    expect(line.err.query).toBe('select from "auth_users"');
    expect(line.err.message).toBe('Failed query: select from "auth_users": invalid input syntax for type uuid');
  });

  it('drops detail and where of a value Postgres refuses inside JSON metadata', async () => {
    const err = await failure(() =>
      database.db.insert(authUsers).values({ email: `other-${EMAIL}`, userMetadata: { ...METADATA, note: 'a\u0000b' } }),
    );
    const { lines, log } = capture();
    const line = log(err);
    expectClean(lines.join(''));
    expect(line.err.code).toBe('22P05');
    expect(line.err.query).toBe('insert into "auth_users"');
  });

  it('cleans a query failure wrapped in another error', async () => {
    const cause = await failure(() => database.db.insert(authUsers).values({ email: EMAIL, userMetadata: METADATA }));
    const { lines, log } = capture();
    const line = log(new Error('could not create the account', { cause }));
    expectClean(lines.join(''));
    expect(line.err.type).toBe('Error');
    expect(line.err.message).toBe(
      'could not create the account: Failed query: insert into "auth_users": duplicate key value violates unique constraint "auth_users_email_key"',
    );
    expect(line.err.stack).toContain('caused by: DrizzleQueryError: Failed query: insert into "auth_users"');
  });

  it('cleans query failures inside an AggregateError', async () => {
    const cause = await failure(() => database.db.insert(authUsers).values({ email: EMAIL, userMetadata: METADATA }));
    const { lines, log } = capture();
    const line = log(new AggregateError([cause], 'several writes failed'));
    expectClean(lines.join(''));
    expect(line.err.aggregateErrors).toEqual([expect.objectContaining({ query: 'insert into "auth_users"', code: '23505' })]);
  });

  it('cleans a pg-shaped driver error: detail, where, hint and the values in its message', () => {
    const pgError = Object.assign(new Error(`value "${EMAIL}" is out of range for type integer`), {
      name: 'error',
      severity: 'ERROR',
      code: '22003',
      detail: `Failing row contains (${EMAIL}, ${JSON.stringify(METADATA)}).`,
      where: `SQL function with ${EMAIL}`,
      hint: EMAIL,
      table: 'auth_users',
      column: 'email',
    });
    const query = new DrizzleQueryError('update "auth_users" set "email" = $1 where "auth_users"."id" = $2', [EMAIL, METADATA], pgError);
    const { lines, log } = capture();
    const line = log(query);
    expectClean(lines.join(''));
    expect(line.err.query).toBe('update "auth_users"');
    expect(line.err.code).toBe('22003');
    expect(line.err.message).toBe('Failed query: update "auth_users": value "?" is out of range for type integer');
  });

  it('logs other errors as before: message, stack and own fields', () => {
    const { log } = capture();
    const line = log(Object.assign(new Error('boom'), { status: 502 }));
    expect(line.err).toMatchObject({ type: 'Error', message: 'boom', status: 502 });
    expect(line.err.stack).toMatch(/^Error: boom\n\s+at /);
  });
});

describe('queryName', () => {
  it.each([
    ['insert into "profiles" ("id", "email") values ($1, $2)', 'insert into "profiles"'],
    ['update "content_items" set "title" = $1 where "id" = $2', 'update "content_items"'],
    ['delete from "leads" where "email" = $1', 'delete from "leads"'],
    ['select "id", "email" from "auth_users" where "auth_users"."email" = $1 limit $2', 'select from "auth_users"'],
    ['select * from "x" where a = \'jane@example.com\'', 'select from "x"'],
    ["select pg_notify('content_changed', 'jane@example.com')", 'select'],
    ['with moved as (select 1 from "emails") update "emails" set x = 1', 'with "emails"'],
    ['jane@example.com', 'query'],
  ])('%s', (sql, name) => expect(queryName(sql)).toBe(name));
});

describe('safeDriverMessage', () => {
  it.each([
    [
      'duplicate key value violates unique constraint "auth_users_email_key"',
      'duplicate key value violates unique constraint "auth_users_email_key"',
    ],
    ['invalid input syntax for type uuid: "jane@example.com"', 'invalid input syntax for type uuid'],
    ['invalid input value for enum access_level: "god"', 'invalid input value for enum access_level'],
    ['value "12345678901" is out of range for type integer', 'value "?" is out of range for type integer'],
    [
      'null value in column "email" of relation "profiles" violates not-null constraint',
      'null value in column "email" of relation "profiles" violates not-null constraint',
    ],
    ['relation "nope" does not exist\nLINE 1: select', 'relation "nope" does not exist'],
  ])('%s', (message, safe) => expect(safeDriverMessage(message)).toBe(safe));
});
