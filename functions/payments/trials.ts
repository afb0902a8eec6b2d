/**
 * Free trials' notice (issue 34): three days before a trial ends (one that lasted longer than that),
 * the member is mailed that their plan then starts at its price unless they cancel. Claimed by a
 * conditional write in the mail's transaction, so overlapping rounds mail once. The conversion (the
 * first charge) or the lapse (a cancel during the trial) is the provider's, followed by sync.
 */
import { planFor } from './catalog.ts';
import type { BillingContext } from './context.ts';
import { memberAccess } from '../users/index.ts';
import { createPaymentStore } from './store.ts';

/** How long before a trial's end the member is told. */
export const TRIAL_NOTICE_MS = 3 * 24 * 3_600_000;

export function createTrialNotices({ db, outbox, clock, testMode }: BillingContext) {
  return {
    /** Mails the trials ending within three days; answers how many. */
    async tick(): Promise<number> {
      const now = clock();
      const due = await createPaymentStore(db).trialsEndingBy(now, new Date(now.getTime() + TRIAL_NOTICE_MS), TRIAL_NOTICE_MS);
      let sent = 0;
      for (const sub of due) {
        const mailed = await db.transaction(async (tx) => {
          if (!(await createPaymentStore(tx).claimTrialNotice(sub.id, now))) return false;
          const owner = await memberAccess(tx).byId(sub.userId);
          if (!owner) return false;
          const plan = sub.tierId ? planFor(sub.tierId) : undefined;
          await outbox.enqueue(tx, {
            to: owner.email,
            template: 'billing-trial-ending',
            userId: owner.id,
            data: {
              language: owner.language,
              planName: plan?.name ?? 'your plan',
              amount: sub.amount,
              interval: sub.interval,
              date: sub.trialEnd!.toISOString(),
              testMode,
            },
          });
          return true;
        });
        if (mailed) sent += 1;
      }
      return sent;
    },
  };
}
