/**
 * Fixed-window rate limits kept in the database (abuse/store.ts), so they hold across any number of
 * server instances. Subjects (addresses, IPs, pairs of them) are stored only as keyed digests (HMAC
 * with the server's signing secret, the same on every instance): a plain hash of an IPv4 address is
 * undone by hashing all four billion of them. (Where SECRET_KEY is unset the secret is kept in the
 * same database, so a dump of it holds the key as well: set SECRET_KEY to keep them apart.) An IPv6 client counts as its /64 network, the block
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
 * What a client address counts as: an IPv6 address its /64 network (`2001:db8:1:2::/64`); an IPv4
 * address, also written IPv4-mapped in any spelling (`::ffff:192.0.2.1`, `::ffff:c000:201`), itself;
 * an IPv6 address in the all-zero /64 (loopback, the other IPv4 embeddings) itself, so such clients
 * never share one count; anything else unchanged. A zone (`fe80::1%eth0`) is dropped.
 */
export function networkOf(ip: string): string {
  const bare = ip.split('%')[0]!;
  if (isIP(bare) !== 6) return ip;
  // The URL parser writes any spelling one way: lower case, zeros compressed, an IPv4 tail as hex.
  const canonical = new URL(`http://[${bare}]`).hostname.slice(1, -1);
  const [head = '', tail = ''] = canonical.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = canonical.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  if (groups.slice(0, 4).some((group) => group !== '0')) return `${groups.slice(0, 4).join(':')}::/64`;
  if (groups.slice(4, 6).join(':') !== '0:ffff') return canonical;
  const [high, low] = [parseInt(groups[6]!, 16), parseInt(groups[7]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
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
