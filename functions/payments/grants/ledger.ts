/**
 * The grants ledger's rules: a member's access level is derived here, and only here, from the grants
 * that are active (the highest level; staff read at premium whatever they hold), then written to the
 * profile with the instant it may next change, which every reader (the gated rule, feeds, newsletter
 * cuts, events, the community) reads through the viewer. Every change to a grant is made under the
 * profile's lock and followed by `recompute` in the same transaction (comps.ts, sweep.ts, sync.ts).
 */
import { accessRank, isStaff, type AccessLevel, type Role } from '#shared/access.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { memberData, type WebhookEmitter } from '../../outbound/index.ts';
import { memberAccess } from '../../users/index.ts';
import type { ProfileRow } from '../../users/index.ts';
import type { SubscriptionRow } from '../tables.ts';
import { grants as subscriptionGrants } from '../provider.ts';
import { createGrantStore } from './store.ts';
import type { AccessGrantRow, GrantSource, NewAccessGrant } from './tables.ts';

type Span = Pick<AccessGrantRow, 'accessLevel' | 'startsAt' | 'endsAt'>;

/** Whether a grant gives access at `now`. */
export const isActive = (g: Pick<Span, 'startsAt' | 'endsAt'>, now: Date) => g.startsAt <= now && (g.endsAt === null || g.endsAt > now);

/**
 * The one derivation: the highest level among the grants active at `now` (free without one; premium
 * for staff), and the next instant at which that set changes (a grant ends or starts), null when none will.
 */
export function deriveAccess(grants: readonly Span[], role: Role, now: Date): { level: AccessLevel; until: Date | null } {
  if (isStaff(role)) return { level: 'premium', until: null };
  let level: AccessLevel = 'free';
  let until: Date | null = null;
  const sooner = (at: Date) => {
    if (until === null || at < until) until = at;
  };
  for (const g of grants) {
    if (isActive(g, now)) {
      if (accessRank(g.accessLevel) > accessRank(level)) level = g.accessLevel;
      if (g.endsAt) sooner(g.endsAt);
    } else if (g.startsAt > now) sooner(g.startsAt);
  }
  return { level, until };
}

/** Who caused a change, as the audit log records a moved level. */
export interface Cause {
  actorId: string;
  action: string;
  detail?: Record<string, unknown>;
}

export interface LedgerDeps {
  clock: () => Date;
  /** Drops this instance's cached profile at once (other instances hear the profile's change notice). */
  forget: (userId: string) => void;
  /** A moved level is a member.updated event. */
  webhooks: WebhookEmitter;
}

export function createAccessLedger({ clock, forget, webhooks }: LedgerDeps) {
  /** Derives the member's level from their grants now and writes it (with when it may next change) to the locked profile. */
  async function recompute(tx: DbOrTx, profile: ProfileRow, cause: Cause, now = clock()): Promise<AccessLevel> {
    const derived = deriveAccess(await createGrantStore(tx).currentOf(profile.id, now), profile.role, now);
    if (derived.level !== profile.accessLevel || derived.until?.getTime() !== profile.accessUntil?.getTime()) {
      await memberAccess(tx).setDerivedLevel(profile, derived, cause);
      forget(profile.id);
      if (derived.level !== profile.accessLevel)
        await webhooks.emit(
          tx,
          'member.updated',
          { member: memberData({ ...profile, accessLevel: derived.level }), previous: { accessLevel: profile.accessLevel } },
          profile.id,
        );
      // The caller's locked row stays true to what is stored, so a second recompute in the same transaction compares right.
      Object.assign(profile, { accessLevel: derived.level, accessUntil: derived.until });
    }
    return derived.level;
  }

  /** Locks the member's profile (undefined: no such member) and recomputes their level. */
  async function refresh(tx: DbOrTx, userId: string, cause: Cause): Promise<AccessLevel | undefined> {
    const profile = await memberAccess(tx).lock(userId);
    return profile && recompute(tx, profile, cause);
  }

  /** Records a grant for the locked `profile` and recomputes its level. */
  async function grant(tx: DbOrTx, profile: ProfileRow, values: Omit<NewAccessGrant, 'userId'>, cause: Cause): Promise<AccessGrantRow> {
    const row = await createGrantStore(tx).insert({ ...values, userId: profile.id });
    await recompute(tx, profile, cause);
    return row;
  }

  /**
   * Keeps a subscription's row in step with our copy of it (sync.ts, under the profile's lock): while
   * it grants, one row at its plan's level, its source `trial` while trialing, `offer` while one of
   * our offers discounts it, else `subscription`, ending at a scheduled cancellation; a change of level
   * or source ends the row and opens the next, so each stretch of access keeps its own reason.
   */
  async function followSubscription(
    tx: DbOrTx,
    profile: ProfileRow,
    sub: Pick<SubscriptionRow, 'id' | 'status' | 'cancelAt' | 'accessLevel'>,
    cause: Cause,
    offer?: string,
  ) {
    const now = clock();
    const store = createGrantStore(tx);
    const open = await store.currentOfSubscription(sub.id, now);
    const granting = subscriptionGrants(sub, now) && sub.accessLevel !== 'free';
    const source: GrantSource = sub.status === 'trialing' ? 'trial' : offer ? 'offer' : 'subscription';
    const endsAt = sub.cancelAt ?? null;
    if (open && granting && open.accessLevel === sub.accessLevel && open.source === source) {
      if (open.endsAt?.getTime() !== endsAt?.getTime()) await store.setEnd(open.id, endsAt);
    } else {
      if (open) await store.setEnd(open.id, now);
      if (granting)
        await store.insert({
          userId: profile.id,
          accessLevel: sub.accessLevel as 'subscriber' | 'premium',
          source,
          sourceId: sub.id,
          startsAt: now,
          endsAt,
          createdBy: cause.actorId,
          ...(offer ? { detail: offer } : {}),
        });
    }
    return recompute(tx, profile, cause, now);
  }

  return { recompute, refresh, grant, followSubscription };
}

export type AccessLedger = ReturnType<typeof createAccessLedger>;
