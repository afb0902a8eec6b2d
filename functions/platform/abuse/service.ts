/**
 * Fixed-window rate limits kept in the database (abuse/store.ts), so they hold across any number of
 * server instances. Subjects (addresses, IPs, pairs of them) are stored only as keyed digests (HMAC
 * with the server's signing secret, the same on every instance): a plain hash of an IPv4 address is
 * undone by hashing all four billion of them. An IPv6 client counts as its /64 network, the block
 * one subscriber is given, so a client cannot step past a limit by changing the host half of its
 * address (`networkOf`).
 */
import { createHmac } from 'node:crypto';
import { isIP } from 'node:net';
import type { DbOrTx } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { createRateLimitStore, type RateLimitStore } from './store.ts';

export interface Limit {
  /** What is limited, e.g. "contact:ip". */
  name: string;
  max: number;
  windowSeconds: number;
}

export interface LimitResult {
  allowed: boolean;
  remaining: number;
  retryAfterSeconds: number;
}

/**
 * What a client address counts as: an IPv6 address its /64 network (`2001:db8:1:2::/64`), an IPv4
 * address (also written IPv4-mapped, `::ffff:192.0.2.1`) itself; anything else unchanged.
 */
export function networkOf(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export function createRateLimitService(
  store: RateLimitStore,
  secret: Uint8Array,
  storeIn: (tx: DbOrTx) => RateLimitStore = createRateLimitStore,
): RateLimitService {
  const keyOf = (name: string, subject: string) =>
    `${name}:${createHmac('sha256', secret)
      .update(`rate-limit\n${networkOf(subject).toLowerCase()}`)
      .digest('base64url')
      .slice(0, 32)}`;

  async function hit(limit: Limit, subject: string): Promise<LimitResult> {
    const { count, retrySeconds } = await store.hit(keyOf(limit.name, subject), limit.windowSeconds);
    return {
      allowed: count <= limit.max,
      remaining: Math.max(0, limit.max - count),
      retryAfterSeconds: Math.max(1, retrySeconds),
    };
  }

  return {
    hit,
    /** Whether `subject` is still within `limit`, without counting a use (for limits that count failures only). */
    async peek(limit: Limit, subject: string): Promise<LimitResult> {
      const { count, retrySeconds } = await store.peek(keyOf(limit.name, subject), limit.windowSeconds);
      return { allowed: count < limit.max, remaining: Math.max(0, limit.max - count), retryAfterSeconds: Math.max(1, retrySeconds) };
    },
    /** Clears `subject`'s counter for `limit`. */
    reset: (limit: Limit, subject: string) => store.reset(keyOf(limit.name, subject)),
    /** Takes back one use `hit` counted for `subject` (the use turned out not to count, e.g. a right password). */
    release: (limit: Limit, subject: string) => store.release(keyOf(limit.name, subject)),
    /** Remembers that `subject` did `name` now (for up to MARK_DAYS), e.g. an account signed in from an address. */
    remember: (name: string, subject: string) => store.mark(keyOf(name, subject)),
    /** Whether `subject` did `name` within the last `seconds` (at most MARK_DAYS). */
    remembers: (name: string, subject: string, seconds: number) => store.marked(keyOf(name, subject), seconds),
    /** Counts one use against every limit and throws 429 (rate_limited, with Retry-After) when any is exceeded. */
    async enforce(checks: [Limit, string][]): Promise<void> {
      for (const [limit, subject] of checks) {
        const result = await hit(limit, subject);
        if (!result.allowed) {
          throw new AppError('rate_limited', `Too many requests. Please try again in ${formatWait(result.retryAfterSeconds)}.`, {
            headers: { 'Retry-After': String(result.retryAfterSeconds) },
          });
        }
      }
    },
    /** Deletes counters whose window began more than a day ago, and marks older than MARK_DAYS. */
    prune: () => store.prune(),
    /**
     * The same limits counted inside the caller's transaction: a use counts only if the write it
     * guards commits (one refused for another reason costs nothing), and a refusal rolls it back.
     */
    within: (tx: DbOrTx) => createRateLimitService(storeIn(tx), secret, storeIn),
  };
}

/** A wait in words: seconds, minutes or hours. */
export function formatWait(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 90 ? `${minutes} minutes` : `${Math.ceil(minutes / 60)} hours`;
}

export interface RateLimitService {
  /** Counts one use of `limit` by `subject` and says whether it is still allowed. */
  hit(limit: Limit, subject: string): Promise<LimitResult>;
  /** Whether `subject` is still within `limit`, without counting a use (for limits that count failures only). */
  peek(limit: Limit, subject: string): Promise<LimitResult>;
  /** Clears `subject`'s counter for `limit`. */
  reset(limit: Limit, subject: string): Promise<void>;
  /** Takes back one use `hit` counted for `subject`. */
  release(limit: Limit, subject: string): Promise<void>;
  /** Remembers that `subject` did `name` now (for up to MARK_DAYS). */
  remember(name: string, subject: string): Promise<void>;
  /** Whether `subject` did `name` within the last `seconds` (at most MARK_DAYS). */
  remembers(name: string, subject: string, seconds: number): Promise<boolean>;
  /** Counts one use against every limit and throws 429 (rate_limited, with Retry-After) when any is exceeded. */
  enforce(checks: [Limit, string][]): Promise<void>;
  /** Deletes counters whose window began more than a day ago, and marks older than MARK_DAYS; answers how many. */
  prune(): Promise<number>;
  /** The same limits counted inside `tx` (see createRateLimitService). */
  within(tx: DbOrTx): RateLimitService;
}
