/**
 * The server's signing secret: SECRET_KEY when configured, otherwise one generated on first start
 * and kept in the database, so every instance on that database signs and verifies alike.
 */
import { randomBytes } from 'node:crypto';
import type { SecretStore } from './store.ts';

const SIGNING_KEY = 'signing-key';

export async function loadSigningSecret(store: SecretStore, configured?: string): Promise<Uint8Array> {
  const secret = configured || (await store.getOrCreate(SIGNING_KEY, () => randomBytes(48).toString('base64url')));
  return new TextEncoder().encode(secret);
}
