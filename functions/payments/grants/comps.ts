/**
 * Comps: a level staff give a member until a date (or open-ended), with a note, recorded in the grants
 * ledger with the admin who made it and audited; revocable. An admin's level change (PATCH
 * /api/admin/users/{id}, PUT /api/users/{id}/accessLevel) is a comp too: `compTo` ends the member's
 * comps and makes one at the level when it is above what their other grants give. Nothing edits the
 * profile's level in place.
 */
import { accessRank, type AccessLevel } from '#shared/access.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors.ts';
import { memberAccess } from '../../users/index.ts';
import type { ProfileRow } from '../../users/index.ts';
import type { WebhookEmitter } from '../../outbound/index.ts';
import { grantEvent } from '../outbound-events.ts';
import { deriveAccess, type AccessLedger } from './ledger.ts';
import { createGrantStore } from './store.ts';
import type { AccessGrantRow, GrantLevel } from './tables.ts';

/** The furthest end a comp may have (a date beyond it is a typo, not a plan). */
export const MAX_COMP_YEARS = 10;

export interface CompInput {
  accessLevel: GrantLevel;
  until?: Date | undefined;
  note?: string | undefined;
}

const lockedMember = async (tx: DbOrTx, userId: string): Promise<ProfileRow> => {
  const profile = await memberAccess(tx).lock(userId);
  if (!profile) throw new AppError('not_found', 'No such user.');
  return profile;
};

/** What comps need: the database, the ledger that recomputes a level, the clock and the webhooks. */
interface CompDeps {
  db: Db;
  ledger: AccessLedger;
  clock: () => Date;
  webhooks: WebhookEmitter;
}

/** The audit cause of a level staff set. */
const setCause = (actorId: string) => ({ actorId, action: 'access_level.set' });

/** Ends one comp now (audited as `comp.ended`, a grant.ended event); the caller recomputes. */
async function endOne(
  { clock, webhooks }: CompDeps,
  tx: DbOrTx,
  profile: ProfileRow,
  comp: { id: string; accessLevel: string },
  actorId: string,
) {
  await createGrantStore(tx).setEnd(comp.id, clock(), actorId);
  const ended = await createGrantStore(tx).byId(comp.id);
  if (ended) await grantEvent(webhooks, tx, 'grant.ended', profile, ended);
  await memberAccess(tx).audit({
    actorId,
    action: 'comp.ended',
    targetId: profile.id,
    detail: { compId: comp.id, accessLevel: comp.accessLevel },
  });
}

/** Records a comp (audited as `comp.granted`, a grant.started event); the caller recomputes. */
async function addOne({ clock, webhooks }: CompDeps, tx: DbOrTx, profile: ProfileRow, input: CompInput, actorId: string) {
  const row = await createGrantStore(tx).insert({
    userId: profile.id,
    accessLevel: input.accessLevel,
    source: 'comp',
    sourceId: actorId,
    startsAt: clock(),
    endsAt: input.until ?? null,
    createdBy: actorId,
    note: input.note ?? null,
  });
  const detail = {
    compId: row.id,
    accessLevel: row.accessLevel,
    until: row.endsAt?.toISOString() ?? null,
    ...(row.note ? { note: row.note } : {}),
  };
  await memberAccess(tx).audit({ actorId, action: 'comp.granted', targetId: profile.id, detail });
  await grantEvent(webhooks, tx, 'grant.started', profile, row);
  return row;
}

export function createComps(deps: CompDeps) {
  const { db, ledger, clock } = deps;

  /**
   * Sets the locked member's level by comps: their comps end, and an open one at `level` is made when
   * it is above what their other grants give. Already so (one open comp at that level, needed): nothing
   * changes, so seeding the demo accounts at every start adds no rows. Answers the derived level.
   */
  async function compTo(tx: DbOrTx, profile: ProfileRow, level: AccessLevel, actorId: string, note?: string): Promise<AccessLevel> {
    const now = clock();
    const current = await createGrantStore(tx).currentOf(profile.id, now);
    const comps = current.filter((g) => g.source === 'comp');
    const others = deriveAccess(
      current.filter((g) => g.source !== 'comp'),
      profile.role,
      now,
    );
    const needed = accessRank(level) > accessRank(others.level);
    const [only] = comps;
    if (needed && comps.length === 1 && only!.accessLevel === level && only!.endsAt === null && only!.startsAt <= now)
      return ledger.recompute(tx, profile, setCause(actorId));
    for (const comp of comps) await endOne(deps, tx, profile, comp, actorId);
    if (needed) await addOne(deps, tx, profile, { accessLevel: level as GrantLevel, note }, actorId);
    return ledger.recompute(tx, profile, setCause(actorId));
  }

  return {
    compTo,

    /**
     * A members import's comp, in the import's transaction: made unless the member has the same comp
     * already (same level, same end, still running), so importing a file twice gives one comp.
     */
    async importComp(tx: DbOrTx, actorId: string, userId: string, input: CompInput & { until: Date }): Promise<void> {
      const profile = await lockedMember(tx, userId);
      const current = await createGrantStore(tx).currentOf(profile.id, clock());
      const same = (g: AccessGrantRow) =>
        g.source === 'comp' && g.accessLevel === input.accessLevel && g.endsAt?.getTime() === input.until.getTime();
      if (current.some(same)) return;
      await addOne(deps, tx, profile, input, actorId);
      await ledger.recompute(tx, profile, setCause(actorId));
    },

    /** POST /api/admin/payments/members/{id}/comps: a comp until a date (or open-ended); its id. */
    add: (actorId: string, userId: string, input: CompInput): Promise<{ id: string }> =>
      db.transaction(async (tx) => {
        const profile = await lockedMember(tx, userId);
        const row = await addOne(deps, tx, profile, input, actorId);
        await ledger.recompute(tx, profile, setCause(actorId));
        return { id: row.id };
      }),

    /** DELETE /api/admin/payments/members/{id}/comps/{compId}: ends the member's comp now; 404 for one not theirs, 409 for one already over. */
    end: (actorId: string, userId: string, compId: string): Promise<void> =>
      db.transaction(async (tx) => {
        const profile = await lockedMember(tx, userId);
        const comp = await createGrantStore(tx).byId(compId);
        if (!comp || comp.userId !== userId || comp.source !== 'comp') throw new AppError('not_found', 'No such comp for this member.');
        if (comp.endsAt && comp.endsAt <= clock()) throw new AppError('conflict', 'This comp has already ended.');
        await endOne(deps, tx, profile, comp, actorId);
        await ledger.recompute(tx, profile, setCause(actorId));
      }),
  };
}

export type Comps = ReturnType<typeof createComps>;
