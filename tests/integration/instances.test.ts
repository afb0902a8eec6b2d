/**
 * Per-process state that must agree across instances on one Postgres database (the rest of the
 * inventory is in ARCHITECTURE.md, "Invariants": state lives in the database): instances started
 * together on an empty database sign tokens with one key, and a profile change made through one
 * instance (a level an admin or a payment set) reaches the others' profile caches at once, well
 * inside the cache's own 5 s.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSigningKeys } from '../../functions/auth/keys.ts';
import { createAuthStore } from '../../functions/auth/store.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import type { ViewerAnswer } from '../support/answers.ts';
import { openTestDatabase } from '../support/databases.ts';

describe('state shared by instances on one database', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    a = await createTestApp('postgres', database, { AUTH_BCRYPT_COST: '4', EMAIL_WORKER: 'false' });
    b = await createTestApp('postgres', database, { AUTH_BCRYPT_COST: '4', EMAIL_WORKER: 'false' });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.close();
  });

  it('makes one signing key when instances start together on an empty database', async () => {
    const fresh = await openTestDatabase('postgres');
    try {
      // Connections open first, so the four reads really run together, as four processes' would.
      await Promise.all(Array.from({ length: 4 }, () => fresh.db.execute(sql`select pg_sleep(0.05)`)));
      const starting = Array.from({ length: 4 }, () => createSigningKeys(createAuthStore(fresh.db), { tokenLifetimeSeconds: 3600 }));
      await Promise.all(starting.map((keys) => keys.load()));
      expect(await createAuthStore(fresh.db).signingKeys()).toHaveLength(1);
      expect(new Set(starting.map((keys) => keys.signer().kid)).size).toBe(1);
    } finally {
      await fresh.close();
    }
  });

  it('drops a profile another instance cached as soon as a change commits', async () => {
    const email = 'moving-level@instances.test';
    const id = await a.services.auth.createConfirmedUser(email, 'instances test pass', 'Mover');
    const { access_token: token } = await a.services.auth.signInWithPassword({ email, password: 'instances test pass' });
    const level = async (t: TestApp) =>
      ((await (await t.app.request('/api/users/me', { headers: { authorization: `Bearer ${token}` } })).json()) as ViewerAnswer).viewer
        .accessLevel;
    expect(await level(b)).toBe('free');
    const changed = Date.now();
    await a.services.users.assign(id, 'member', 'premium');
    await expect.poll(() => level(b), { timeout: 1000, interval: 20 }).toBe('premium');
    expect(Date.now() - changed).toBeLessThan(1000);
  });
});
