/**
 * API keys for integrations (issue 35): an admin makes one with scopes and sees it once; only its
 * SHA-256 is kept (32 random bytes need no slow hash). A key acts as the admin who made it, so the
 * same role tables hold, and stops when it is revoked or that admin is an admin no longer. Its last
 * use is kept to the minute.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ApiScope } from '#shared/members.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors.ts';
import type { ApiKeyRow } from '../tables.ts';
import { createApiKeyStore } from './store.ts';

/** What every key starts with, so a leaked one is easy to recognise (and to scan for). */
export const KEY_PREFIX = 'mk_';
export const MAX_KEYS = 50;
/** How long a checked key is trusted before the database is asked again (a revocation takes at most this long). */
const CACHE_MS = 5_000;

const digest = (key: string) => createHash('sha256').update(key).digest('hex');

const keyJson = (k: ApiKeyRow) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  scopes: k.scopes as ApiScope[],
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
  revokedAt: k.revokedAt?.toISOString() ?? null,
});

export function createApiKeys({ db }: { db: DbOrTx }) {
  const store = createApiKeyStore(db);
  const checked = new Map<string, { row: ApiKeyRow | undefined; until: number }>();
  return {
    list: async () => (await store.list()).map(keyJson),

    /** A new key: its id and the key itself, shown this once. */
    async create(createdBy: string, name: string, scopes: ApiScope[]) {
      if ((await store.list()).filter((k) => !k.revokedAt).length >= MAX_KEYS)
        throw new AppError('conflict', `There are ${MAX_KEYS} keys already; revoke one first.`);
      const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
      const row = await store.insert({ name, prefix: key.slice(0, 11), hash: digest(key), scopes, createdBy });
      return { ...keyJson(row), key };
    },

    async revoke(id: string) {
      if (!(await store.revoke(id))) throw new AppError('not_found', 'No such key, or it was revoked already.');
      checked.clear();
    },

    /** The live key behind `key` (checked lately, or asked of the database), marking its use. */
    async check(key: string): Promise<ApiKeyRow | undefined> {
      const hash = digest(key);
      const hit = checked.get(hash);
      if (hit && hit.until > Date.now()) return hit.row;
      const row = await store.live(hash);
      if (checked.size > 1000) checked.clear();
      checked.set(hash, { row, until: Date.now() + CACHE_MS });
      if (row) await store.touch(row.id);
      return row;
    },
  };
}

export type ApiKeys = ReturnType<typeof createApiKeys>;
