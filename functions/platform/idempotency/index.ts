/**
 * Idempotency-Key on API writes, as Stripe has it: a write sent again with the same key and the
 * same request within a day answers what the first one answered (status, body, Content-Type and
 * Location, marked `Idempotent-Replayed: true`) and changes nothing. The same key with another
 * request is 422; a retry while the first attempt runs is 409 with Retry-After. Keys belong to the
 * caller (the verified member, or `anonymous`), so nobody else's key replays to anyone.
 *
 * A dead instance: the key is claimed before the route runs, and marked committed inside the write's
 * own transaction (commit-hooks.ts), with the outbox row its mail is. A retry after an attempt died
 * (its lease ran out) runs again when nothing committed; when the write committed but its answer
 * was never kept, it is 409 `answer_lost`: the write stands, once, and the client is told to look.
 * The rules of which answers are kept are ledger.ts's; requests without the header pass untouched.
 */
import type { AppContext, AppMiddleware } from '../http/context.ts';
import { withBeforeCommit, type BeforeCommit } from '../db/commit-hooks.ts';
import { AppError } from '../errors.ts';
import type { IdempotencyLedger } from './ledger.ts';
import { derivedKey, fingerprintOf, idempotencyKeyOf } from './request.ts';
import type { KeptAnswer } from './store.ts';

declare module '../http/context.ts' {
  interface AppVariables {
    /** The request's Idempotency-Key and whose it is, once the key is claimed. */
    idempotency?: { scope: string; key: string };
  }
}

/** The scope of callers who are not signed in. */
export const ANONYMOUS = 'anonymous';
/** On a replayed answer, as Stripe names it. */
export const REPLAYED = 'Idempotent-Replayed';
/** The answer's headers that are kept and replayed; the rest are the edge's, set on every answer. */
const KEPT_HEADERS = ['content-type', 'location', 'content-disposition'];
/** A larger answer is not kept (writes answer a few hundred bytes; the largest conversation is some MB). */
const MAX_KEPT_BYTES = 1024 * 1024;

export interface IdempotencyDeps {
  ledger: IdempotencyLedger;
  /** The verified caller's id; undefined for visitors and tokens that do not verify (their route answers those). */
  callerOf: (c: AppContext) => Promise<string | undefined>;
  /** Whether the route reads its own body as it streams (not read here: see request.ts). */
  streamsOwnBody: (c: AppContext) => boolean;
}

/** The middleware for API writes; requests without an Idempotency-Key pass untouched. */
export function idempotentWrites({ ledger, callerOf, streamsOwnBody }: IdempotencyDeps): AppMiddleware {
  return async (c, next) => {
    const key = idempotencyKeyOf(c);
    if (key === undefined) return next();
    const scope = (await callerOf(c)) ?? ANONYMOUS;
    const begun = await ledger.begin(scope, key, await fingerprintOf(c, streamsOwnBody(c)));
    if (begun.kind === 'replay') return replay(begun.answer);
    if (begun.kind === 'reused') {
      throw new AppError('idempotency_key_reused', 'This Idempotency-Key came with a different request. Send a new key for a new request.');
    }
    if (begun.kind === 'running') {
      throw new AppError('request_in_progress', 'A request with this Idempotency-Key is still being processed. Try again in a moment.', {
        headers: { 'Retry-After': '1' },
      });
    }
    if (begun.kind === 'lost') {
      throw new AppError(
        'answer_lost',
        'This request was carried out already, but its answer was lost. It was not carried out again: reload the page to see the result.',
      );
    }
    const { ref } = begun;
    c.set('idempotency', { scope, key });
    // Only while the route runs: work it started that commits later is not this write.
    let running = true;
    const hook: BeforeCommit = async (tx) => {
      if (running) await ledger.markCommitted(tx, ref);
    };
    const lease = setInterval(() => void ledger.extend(ref).catch(() => undefined), (ledger.leaseSeconds * 1000) / 3);
    lease.unref();
    let failed = false;
    try {
      await withBeforeCommit(hook, next);
    } catch (err) {
      failed = true;
      throw err;
    } finally {
      running = false;
      clearInterval(lease);
      // The answer goes out whether or not it could be kept: a retry is then answered by the rules for a lost one.
      const answer = failed ? undefined : await keptAnswer(c.res).catch(() => undefined);
      await ledger.finish(ref, answer).catch((err: unknown) => c.get('log')().error({ err }, 'an idempotent answer could not be kept'));
    }
  };
}

/** The kept answer again, marked as a replay. */
function replay(answer: KeptAnswer): Response {
  const empty = answer.status === 204 || answer.status === 304;
  return new Response(empty ? null : answer.body, { status: answer.status, headers: { ...answer.headers, [REPLAYED]: 'true' } });
}

/** The answer as it is kept: undefined when it cannot be (written to Node directly, too large, not text). */
async function keptAnswer(res: Response): Promise<KeptAnswer | undefined> {
  if (res.status >= 500 || res.headers.has('x-hono-already-sent')) return undefined;
  const length = Number(res.headers.get('content-length') ?? 0);
  if (length > MAX_KEPT_BYTES) return undefined;
  const bytes = await res.clone().arrayBuffer();
  if (bytes.byteLength > MAX_KEPT_BYTES) return undefined;
  let body: string;
  try {
    body = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = res.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return { status: res.status, headers, body };
}

/**
 * The key a write hands an outside service (Stripe's `idempotencyKey`): derived from the caller's
 * key, so the service answers a retry what it answered the first attempt. Undefined without a key.
 */
export function outsideKey(c: AppContext, purpose: string): string | undefined {
  const keyed = c.get('idempotency');
  return keyed && derivedKey(purpose, keyed.scope, keyed.key);
}
