/** The auth tables' SQL: users, sessions, refresh tokens, emailed one-time tokens, signing keys. */
import { and, desc, eq, gte, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.ts';
import {
  authOneTimeTokens,
  authRefreshTokens,
  authSessions,
  authSigningKeys,
  authUsers,
  type AuthUserRow,
  type OneTimeTokenKind,
} from './tables.ts';

/** What the parts of `createAuthStore` share. */
interface StoreDeps {
  db: DbOrTx;
}

/** Users: look-ups, inserts (one or many), updates and deletion. */
function userRows({ db }: StoreDeps) {
  return {
    async userByEmail(email: string): Promise<AuthUserRow | undefined> {
      const [row] = await db.select().from(authUsers).where(eq(authUsers.email, email));
      return row;
    },
    async userById(id: string): Promise<AuthUserRow | undefined> {
      const [row] = await db.select().from(authUsers).where(eq(authUsers.id, id));
      return row;
    },
    /** Inserts a user; undefined when the address was taken meanwhile. */
    async insertUser(values: typeof authUsers.$inferInsert): Promise<AuthUserRow | undefined> {
      const [row] = await db.insert(authUsers).values(values).onConflictDoNothing().returning();
      return row;
    },
    /** Inserts many accounts at once (a members import); answers those made (an address taken meanwhile is left out). */
    async insertUsers(
      values: { id: string; email: string; userMetadata: Record<string, unknown> }[],
    ): Promise<{ id: string; email: string }[]> {
      if (values.length === 0) return [];
      // The rows travel as one JSON parameter: a thousand rows of bound values cost the query builder
      // about 35 kB of garbage each (a members import of 50,000 peaked 200 MB above its start).
      const rows = JSON.stringify(values.map((v) => ({ id: v.id, email: v.email, user_metadata: v.userMetadata })));
      const result = await db.execute(sql`insert into ${authUsers} (id, email, user_metadata)
        select r.id, r.email, r.user_metadata from jsonb_to_recordset(${rows}::jsonb) as r(id uuid, email text, user_metadata jsonb)
        on conflict do nothing returning id, email`);
      return (result as unknown as { rows: { id: string; email: string }[] }).rows;
    },
    async updateUser(id: string, patch: Partial<typeof authUsers.$inferInsert>): Promise<AuthUserRow> {
      const [row] = await db
        .update(authUsers)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(authUsers.id, id))
        .returning();
      return row!;
    },
    async deleteUser(id: string) {
      await db.delete(authUsers).where(eq(authUsers.id, id));
    },
  };
}

/** Sessions and their refresh tokens. */
function sessionRows({ db }: StoreDeps) {
  return {
    async createSession(userId: string, amr: { method: string; timestamp: number }[]) {
      const [row] = await db.insert(authSessions).values({ userId, amr }).returning();
      return row!;
    },
    async session(id: string) {
      const [row] = await db.select().from(authSessions).where(eq(authSessions.id, id));
      return row;
    },
    async touchSession(id: string) {
      await db.update(authSessions).set({ refreshedAt: new Date() }).where(eq(authSessions.id, id));
    },
    async deleteSession(id: string) {
      await db.delete(authSessions).where(eq(authSessions.id, id));
    },
    /** Deletes the user's sessions, all of them or all but `keep`. */
    async deleteSessionsOf(userId: string, keep?: string) {
      await db
        .delete(authSessions)
        .where(keep ? and(eq(authSessions.userId, userId), ne(authSessions.id, keep)) : eq(authSessions.userId, userId));
    },
    async insertRefreshToken(id: string, sessionId: string, parentId: string | null = null) {
      await db.insert(authRefreshTokens).values({ id, sessionId, parentId });
    },
    /** The session's current (unused) refresh token. */
    async currentRefreshTokenRow(sessionId: string) {
      const [row] = await db
        .select()
        .from(authRefreshTokens)
        .where(and(eq(authRefreshTokens.sessionId, sessionId), isNull(authRefreshTokens.usedAt)))
        .orderBy(desc(authRefreshTokens.createdAt))
        .limit(1);
      return row;
    },
    /** A refresh token row, locked for this transaction, with its session. */
    async refreshTokenForUpdate(id: string) {
      const rows = await db.select().from(authRefreshTokens).where(eq(authRefreshTokens.id, id)).for('update');
      return rows[0];
    },
    /** Marks a token used; false when it was used already (a concurrent refresh won). */
    async useRefreshToken(id: string): Promise<boolean> {
      const rows = await db
        .update(authRefreshTokens)
        .set({ usedAt: new Date() })
        .where(and(eq(authRefreshTokens.id, id), isNull(authRefreshTokens.usedAt)))
        .returning({ id: authRefreshTokens.id });
      return rows.length === 1;
    },
    /** Locks the session row, so refreshes of one session run one at a time. */
    async lockSession(id: string) {
      const rows = await db.select({ id: authSessions.id }).from(authSessions).where(eq(authSessions.id, id)).for('update');
      return rows.length === 1;
    },
  };
}

/** Emailed one-time tokens: stored by hash, taken once, failed or dropped. */
function oneTimeTokenRows({ db }: StoreDeps) {
  return {
    // Emailed one-time tokens --------------------------------------------------------------------
    /** Stores the latest token of a kind for a user (replacing, and so voiding, the previous one). */
    async putOneTimeToken(userId: string, kind: OneTimeTokenKind, tokenHash: string, email: string) {
      await db
        .insert(authOneTimeTokens)
        .values({ userId, kind, tokenHash, email })
        .onConflictDoUpdate({
          target: [authOneTimeTokens.userId, authOneTimeTokens.kind],
          set: { tokenHash, email, failedAttempts: 0, createdAt: sql`now()` },
        });
    },
    async oneTimeTokenByHash(tokenHash: string, kinds: readonly OneTimeTokenKind[]) {
      const [row] = await db
        .select()
        .from(authOneTimeTokens)
        .where(and(eq(authOneTimeTokens.tokenHash, tokenHash), inArray(authOneTimeTokens.kind, [...kinds])));
      return row;
    },
    async hasOneTimeToken(userId: string, kind: OneTimeTokenKind): Promise<boolean> {
      const rows = await db
        .select({ kind: authOneTimeTokens.kind })
        .from(authOneTimeTokens)
        .where(and(eq(authOneTimeTokens.userId, userId), eq(authOneTimeTokens.kind, kind)));
      return rows.length > 0;
    },
    /** Deletes one token; false when it was gone already (used by a concurrent request). */
    async takeOneTimeToken(userId: string, kind: OneTimeTokenKind, tokenHash: string): Promise<boolean> {
      const rows = await db
        .delete(authOneTimeTokens)
        .where(and(eq(authOneTimeTokens.userId, userId), eq(authOneTimeTokens.kind, kind), eq(authOneTimeTokens.tokenHash, tokenHash)))
        .returning({ kind: authOneTimeTokens.kind });
      return rows.length === 1;
    },
    /**
     * Counts a wrong code against the user's pending tokens of `kinds` and deletes those that reached
     * `max` wrong tries (the next mail then carries a new code).
     */
    async failOneTimeTokens(userId: string, kinds: readonly OneTimeTokenKind[], max: number) {
      const mine = and(eq(authOneTimeTokens.userId, userId), inArray(authOneTimeTokens.kind, [...kinds]));
      await db
        .update(authOneTimeTokens)
        .set({ failedAttempts: sql`${authOneTimeTokens.failedAttempts} + 1` })
        .where(mine);
      await db.delete(authOneTimeTokens).where(and(mine, gte(authOneTimeTokens.failedAttempts, max)));
    },
    async deleteOneTimeTokens(userId: string, kinds?: readonly OneTimeTokenKind[]) {
      await db
        .delete(authOneTimeTokens)
        .where(
          kinds
            ? and(eq(authOneTimeTokens.userId, userId), inArray(authOneTimeTokens.kind, [...kinds]))
            : eq(authOneTimeTokens.userId, userId),
        );
    },
  };
}

/** The keys access tokens are signed with, and their retirement. */
function signingKeyRows({ db }: StoreDeps) {
  return {
    signingKeys: () => db.select().from(authSigningKeys).orderBy(desc(authSigningKeys.createdAt)),
    async insertSigningKey(values: typeof authSigningKeys.$inferInsert) {
      await db.insert(authSigningKeys).values(values);
    },
    /**
     * The first key, unless another instance starting at the same moment made one: under a lock, so
     * instances started together on an empty database all sign with the same key.
     */
    async insertFirstSigningKey(values: typeof authSigningKeys.$inferInsert) {
      await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('auth_signing_keys'))`);
        const [live] = await tx
          .select({ kid: authSigningKeys.kid })
          .from(authSigningKeys)
          .where(isNull(authSigningKeys.retiredAt))
          .limit(1);
        if (!live) await tx.insert(authSigningKeys).values(values);
      });
    },
    async retireSigningKeys(exceptKid: string) {
      await db
        .update(authSigningKeys)
        .set({ retiredAt: new Date() })
        .where(and(ne(authSigningKeys.kid, exceptKid), isNull(authSigningKeys.retiredAt)));
    },
    async deleteSigningKeysRetiredBefore(before: Date) {
      await db.delete(authSigningKeys).where(sql`${authSigningKeys.retiredAt} < ${before}`);
    },
  };
}

export function createAuthStore(db: DbOrTx) {
  const deps: StoreDeps = { db };
  return { ...userRows(deps), ...sessionRows(deps), ...oneTimeTokenRows(deps), ...signingKeyRows(deps) };
}

export type AuthStore = ReturnType<typeof createAuthStore>;
