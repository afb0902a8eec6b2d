/**
 * ES256 signing keys for access tokens, each with a `kid`: made on first start and kept in the
 * database, so every instance signs and verifies alike. `rotate()` makes a new key the signer; the
 * old one stays in the JWKS until the tokens it signed have expired (plus a margin for caches).
 */
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { AuthStore } from './store.ts';

export const SIGNING_ALG = 'ES256';
/** How long the published key set may be cached (Supabase's edge and clients use 10 minutes). */
export const JWKS_MAX_AGE_SECONDS = 600;

interface LoadedKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  createdAt: Date;
  retiredAt: Date | null;
}

export function createSigningKeys(store: AuthStore, { tokenLifetimeSeconds }: { tokenLifetimeSeconds: number }) {
  let keys: LoadedKey[] = [];
  let loadedAt = 0;
  const publishedFor = (tokenLifetimeSeconds + JWKS_MAX_AGE_SECONDS) * 1000;

  /** A new key; `first` adds it only if no instance has a signer yet (instances starting together). */
  async function generate(first = false): Promise<void> {
    const { privateKey, publicKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: SIGNING_ALG, use: 'sig', key_ops: ['verify'] };
    const row = { kid, privateJwk: { ...(await exportJWK(privateKey)), kid, alg: SIGNING_ALG }, publicJwk };
    await (first ? store.insertFirstSigningKey(row) : store.insertSigningKey(row));
  }

  async function load(): Promise<void> {
    let rows = await store.signingKeys();
    if (!rows.some((r) => !r.retiredAt)) {
      await generate(true);
      rows = await store.signingKeys();
    }
    keys = await Promise.all(
      rows.map(async (r) => ({
        kid: r.kid,
        privateKey: (await importJWK(r.privateJwk as JWK, SIGNING_ALG)) as CryptoKey,
        publicJwk: r.publicJwk as JWK,
        createdAt: r.createdAt,
        retiredAt: r.retiredAt,
      })),
    );
    loadedAt = Date.now();
  }

  return {
    load,
    /** Reloads at most every `minAgeMs` (another instance may have rotated). */
    async refresh(minAgeMs = 10_000): Promise<void> {
      if (Date.now() - loadedAt >= minAgeMs) await load();
    },
    /** The key that signs new tokens: the newest one not retired. */
    signer(): { kid: string; privateKey: CryptoKey } {
      const key = keys.find((k) => !k.retiredAt);
      if (!key) throw new Error('no signing key loaded');
      return key;
    },
    /** Public keys whose tokens may still be valid. */
    jwks(): { keys: JWK[] } {
      const now = Date.now();
      return { keys: keys.filter((k) => !k.retiredAt || now - k.retiredAt.getTime() < publishedFor).map((k) => k.publicJwk) };
    },
    /** Makes a new key the signer; the others stay published until their tokens have expired. */
    async rotate(): Promise<string> {
      await generate();
      const [newest] = await store.signingKeys();
      await store.retireSigningKeys(newest!.kid);
      await store.deleteSigningKeysRetiredBefore(new Date(Date.now() - publishedFor));
      await load();
      return newest!.kid;
    },
  };
}

export type SigningKeys = ReturnType<typeof createSigningKeys>;
