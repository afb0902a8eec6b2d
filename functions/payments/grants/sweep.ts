/**
 * The ledger's clock: applies the ends of grants (the level derived again, so it falls back on every
 * instance through the profile's change notice) and mails the member three days before a comp or a
 * gift ends and when it has, when that end lowers their level. Run by every instance's timer and by
 * the serverless round (background.ts); each grant is handled under its member's lock and marked, so
 * overlapping sweeps never do one twice. A member reading in between is already covered: a profile
 * read after its `access_until` derives the level again (ledger.ts `refresh`).
 */
import { accessRank } from '#shared/access.ts';
import type { EmailService } from '../../email/index.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import type { Logger } from '../../platform/logger.ts';
import { memberAccess } from '../../users/index.ts';
import type { ProfileRow } from '../../users/index.ts';
import type { WebhookEmitter } from '../../outbound/index.ts';
import { grantEvent } from '../outbound-events.ts';
import { BILLING_ACTOR } from '../context.ts';
import { grantView } from './answers.ts';
import { deriveAccess, type AccessLedger } from './ledger.ts';
import { createGrantStore } from './store.ts';
import type { AccessGrantRow, GrantSource } from './tables.ts';

/** How long before its end a comp or a gift is announced. */
export const WARN_BEFORE_MS = 3 * 24 * 3_600_000;
/** The sources whose end the ledger mails about (billing mails subscriptions' and trials' own). */
const MAILED: readonly GrantSource[] = ['comp', 'gift'];
const BATCH = 50;

export interface SweepDeps {
  db: Db;
  ledger: AccessLedger;
  outbox: EmailService;
  clock: () => Date;
  logger: Logger;
  webhooks: WebhookEmitter;
}

export function createGrantSweep({ db, ledger, outbox, clock, logger, webhooks }: SweepDeps) {
  /** Whether the member reads below the grant's level once it ends (another grant may cover it). */
  async function loses(tx: DbOrTx, profile: ProfileRow, grant: AccessGrantRow, at: Date): Promise<boolean> {
    const others = (await createGrantStore(tx).currentOf(profile.id, new Date(at.getTime() - 1))).filter((g) => g.id !== grant.id);
    return accessRank(deriveAccess(others, profile.role, at).level) < accessRank(grant.accessLevel);
  }

  const mail = (tx: DbOrTx, profile: ProfileRow, grant: AccessGrantRow, template: 'access-ending' | 'access-ended') =>
    outbox.enqueue(tx, { to: profile.email, template, userId: profile.id, data: { language: profile.language, grant: grantView(grant) } });

  /**
   * One grant, in its own transaction under its member's lock (the lock order every writer keeps:
   * profile, then grants), re-read there so a sweep beside this one finds it done.
   */
  async function each(ids: string[], work: (tx: DbOrTx, profile: ProfileRow, grant: AccessGrantRow) => Promise<void>): Promise<number> {
    let done = 0;
    for (const id of ids) {
      try {
        await db.transaction(async (tx) => {
          const first = await createGrantStore(tx).byId(id);
          const profile = first && (await memberAccess(tx).lock(first.userId));
          const grant = profile && (await createGrantStore(tx).byId(id));
          if (grant) await work(tx, profile, grant);
        });
        done += 1;
      } catch (err) {
        logger.warn({ err, grantId: id }, 'grants: applying a grant’s end failed; the next sweep tries again');
      }
    }
    return done;
  }

  /** Applies ends that have come: the level derived again; the member mailed when they lost a comp's or a gift's level. */
  async function settle(now: Date): Promise<number> {
    const due = await createGrantStore(db).dueToSettle(now, BATCH);
    return each(
      due.map((g) => g.id),
      async (tx, profile, grant) => {
        if (grant.settledAt || !grant.endsAt || grant.endsAt > now) return;
        const lost = MAILED.includes(grant.source) && (await loses(tx, profile, grant, grant.endsAt));
        await createGrantStore(tx).markSettled(grant.id, now);
        await ledger.recompute(
          tx,
          profile,
          { actorId: BILLING_ACTOR, action: 'access_level.grants', detail: { grantId: grant.id, source: grant.source } },
          now,
        );
        if (lost) await mail(tx, profile, grant, 'access-ended');
        // A comp or gift that ran its course (one an admin ended had its event then: comps.ts).
        if (MAILED.includes(grant.source) && !grant.endedBy) await grantEvent(webhooks, tx, 'grant.ended', profile, grant);
      },
    );
  }

  /** Announces comps and gifts ending within three days that lasted longer than that, when their end lowers the level. */
  async function warn(now: Date): Promise<number> {
    const due = await createGrantStore(db).dueToWarn(MAILED, now, new Date(now.getTime() + WARN_BEFORE_MS), BATCH);
    return each(
      due.map((g) => g.id),
      async (tx, profile, grant) => {
        if (grant.warnedAt || grant.settledAt || !grant.endsAt || grant.endsAt <= now) return;
        await createGrantStore(tx).markWarned(grant.id, now);
        const long = grant.endsAt.getTime() - grant.createdAt.getTime() > WARN_BEFORE_MS;
        if (long && (await loses(tx, profile, grant, grant.endsAt))) await mail(tx, profile, grant, 'access-ending');
      },
    );
  }

  return {
    /** One sweep: ends applied, then warnings; answers how many grants it handled. */
    async tick(): Promise<number> {
      const now = clock();
      return (await settle(now)) + (await warn(now));
    },
  };
}

export type GrantSweep = ReturnType<typeof createGrantSweep>;
