import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRateLimitService, networkOf, type Limit } from './service.ts';
import type { RateLimitStore } from './store.ts';

/** The store's counters in memory, with the keys it was given. */
function memoryStore() {
  const counts = new Map<string, number>();
  const store = {
    hit: async (key: string) => {
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return { count: counts.get(key)!, retrySeconds: 60 };
    },
    peek: async (key: string) => ({ count: counts.get(key) ?? 0, retrySeconds: 60 }),
    reset: async (key: string) => void counts.delete(key),
    release: async (key: string) => void counts.set(key, Math.max(0, (counts.get(key) ?? 0) - 1)),
    mark: async (key: string) => void counts.set(key, 1),
    marked: async (key: string) => counts.has(key),
    prune: async () => 0,
  } satisfies Record<keyof RateLimitStore, unknown>;
  return { store: store as unknown as RateLimitStore, keys: () => [...counts.keys()] };
}

const LIMIT: Limit = { name: 'test:ip', max: 2, windowSeconds: 60 };
const secret = (byte: number) => new Uint8Array(32).fill(byte);

describe('networkOf', () => {
  // An IPv6 client counts as its /64 network, in one spelling whatever the address's.
  it.each([
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['1:2:3::4.5.6.7', '1:2:3:0::/64'],
    ['::2:3:4:5:6:1.2.3.4', '0:2:3:4::/64'],
    ['1::3:4:5:6:1.2.3.4', '1:0:3:4::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    // The all-zero /64 is never one count: loopback and IPv4 embeddings stay whole.
    ['::1', '::1'],
    ['::ffff:0:192.0.2.1', '::ffff:0:c000:201'],
    ['::192.0.2.1', '::c000:201'],
    // An IPv4 address, also written IPv4-mapped in any spelling, is itself; what is no address is kept.
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::ffff:c000:201', '192.0.2.1'],
    ['0:0:0:0:0:FFFF:192.0.2.1', '192.0.2.1'],
    ['ada@example.com', 'ada@example.com'],
    ['unknown', 'unknown'],
  ])('%s counts as %s', (address, network) => {
    expect(networkOf(address)).toBe(network);
  });
});

describe('rate limit keys', () => {
  it('counts every address of one IPv6 /64 together, and another /64 apart', async () => {
    const limiter = createRateLimitService(memoryStore().store, secret(1));
    expect((await limiter.hit(LIMIT, '2001:db8:1:2::1')).allowed).toBe(true);
    expect((await limiter.hit(LIMIT, '2001:db8:1:2::2')).allowed).toBe(true);
    expect((await limiter.hit(LIMIT, '2001:db8:1:2:ffff::9')).allowed).toBe(false);
    expect((await limiter.hit(LIMIT, '2001:db8:1:3::1')).allowed).toBe(true);
    expect((await limiter.hit(LIMIT, '192.0.2.1')).allowed).toBe(true);
    expect((await limiter.hit(LIMIT, '::ffff:192.0.2.1')).allowed).toBe(true);
    expect((await limiter.hit(LIMIT, '192.0.2.1')).allowed).toBe(false);
  });

  it('stores a keyed digest: not the plain hash of the address, and another secret gives another key', async () => {
    const one = memoryStore();
    const other = memoryStore();
    await createRateLimitService(one.store, secret(1)).hit(LIMIT, '192.0.2.1');
    await createRateLimitService(other.store, secret(2)).hit(LIMIT, '192.0.2.1');
    const [key] = one.keys();
    expect(key).toMatch(/^test:ip:[\w-]{32}$/);
    expect(key).not.toContain('192.0.2.1');
    const plain = createHash('sha256').update('192.0.2.1').digest('base64url').slice(0, 32);
    expect(key).not.toBe(`test:ip:${plain}`);
    expect(other.keys()).toHaveLength(1);
    expect(other.keys()[0]).not.toBe(key);
  });

  it('counts inside a transaction under the same keys', async () => {
    const memory = memoryStore();
    const limiter = createRateLimitService(memory.store, secret(1), () => memory.store);
    await limiter.hit(LIMIT, 'ada@example.com');
    await limiter.within({} as never).hit(LIMIT, 'ADA@example.com');
    expect(memory.keys()).toHaveLength(1);
    expect((await limiter.peek(LIMIT, 'ada@example.com')).allowed).toBe(false);
  });
});
