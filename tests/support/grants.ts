/**
 * The ledger's invariant, for every suite that moves levels: no member reads above what their active
 * grants give (a payment's, a gift's, a trial's, an offer's or staff's), whatever path set it.
 */
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { accessRank } from '#shared/access.ts';
import { deriveAccess } from '../../functions/payments/grants/ledger.ts';
import { accessGrants } from '../../functions/payments/grants/tables.ts';
import type { Db } from '../../functions/platform/db/client.ts';
import { profiles } from '../../functions/users/tables.ts';

export async function expectNoLevelWithoutAGrant(db: Db, now = new Date()): Promise<void> {
  const members = await db.select().from(profiles).where(eq(profiles.role, 'member'));
  const grants = await db.select().from(accessGrants);
  const above = members.filter(
    (p) =>
      accessRank(p.accessLevel) >
      accessRank(
        deriveAccess(
          grants.filter((g) => g.userId === p.id),
          p.role,
          now,
        ).level,
      ),
  );
  expect(above.map((p) => `${p.email}: ${p.accessLevel}`)).toEqual([]);
}
