/**
 * The grants ledger as the rest of the product reaches it: the derivation and its writers
 * (ledger.ts), comps (comps.ts), the sweep that applies ends (sweep.ts), and the lists the member
 * and staff read. Built by the billing service, which owns it.
 */
import type { GrantView } from '#shared/payments/grants.ts';
import type { BillingContext } from '../context.ts';
import { BILLING_ACTOR } from '../context.ts';
import { grantView, inDisplayOrder, staffGrantView, type StaffGrantView } from './answers.ts';
import { createComps } from './comps.ts';
import { createAccessLedger } from './ledger.ts';
import { createGrantStore } from './store.ts';
import { createGrantSweep } from './sweep.ts';

export function createGrantService({ db, outbox, logger, clock, users, webhooks }: BillingContext) {
  const ledger = createAccessLedger({ clock, forget: (id) => users.forget(id), webhooks });
  const comps = createComps({ db, ledger, clock, webhooks });
  const sweep = createGrantSweep({ db, ledger, outbox, clock, logger, webhooks });

  async function history(userId: string) {
    const now = clock();
    const rows = inDisplayOrder(await createGrantStore(db).historyOf(userId), now);
    return { rows, now };
  }

  return {
    ledger,
    comps,
    sweep,

    /** GET /api/payments/grants: every grant behind the member's access, the active ones first. */
    async mine(userId: string): Promise<GrantView[]> {
      const { rows, now } = await history(userId);
      return rows.map(({ grant, ...facts }) => grantView(grant, facts, now));
    },

    /** The member's grants as staff read them on the admin card (notes, who made and ended them). */
    async ofMember(userId: string): Promise<StaffGrantView[]> {
      const { rows, now } = await history(userId);
      return rows.map(({ grant, ...facts }) => staffGrantView(grant, facts, now));
    },

    /** Derives a member's level again now (a profile read after its `access_until`); undefined for no such member. */
    refresh: (userId: string) =>
      db.transaction((tx) => ledger.refresh(tx, userId, { actorId: BILLING_ACTOR, action: 'access_level.grants' })),
  };
}

export type GrantService = ReturnType<typeof createGrantService>;
