/**
 * The admin dashboard's read-only queries over other domains' tables: THE ONE DOCUMENTED EXCEPTION to
 * "a store touches only its own domain's tables" (issue 21). The admin domain owns no table; its
 * overview is a handful of aggregates (members per level and per sign-up day from profiles, revenue
 * and cancellations from subscriptions (with offers' discounts), leads, confirmed newsletter subscribers, failed emails) that
 * would each otherwise need a hook in five domains, and the member list shows each member's
 * subscriptions, purchases and current grants. Nothing here writes. Member search and the audit trail go through the
 * users domain (users/directory.ts); account export and deletion through users/personal-data.ts.
 */
import { and, count, desc, gt, gte, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { GRANTING_STATUSES } from '../payments/index.ts';
import type { DbOrTx } from '../platform/db/client.ts';
/* eslint-disable @typescript-eslint/no-restricted-imports -- the documented exception above: read-only, here only. */
import { profiles } from '../users/tables.ts';
import { emails } from '../email/tables.ts';
import { leads } from '../leads/tables.ts';
import { newsletterSubscribers } from '../newsletter/tables.ts';
import { purchases, subscriptions } from '../payments/tables.ts';
import { accessGrants } from '../payments/grants/tables.ts';
import { offerRedemptions, offers } from '../payments/offers/tables.ts';
/* eslint-enable @typescript-eslint/no-restricted-imports */

/** Statuses that pay: granting, less a free trial. */
const PAYING_STATUSES = GRANTING_STATUSES.filter((s) => s !== 'trialing');

export function createAdminStore(db: DbOrTx) {
  return {
    /** The member list's billing columns: these members' subscriptions and purchases. */
    subscriptionsOf: (userIds: string[]) =>
      userIds.length ? db.select().from(subscriptions).where(inArray(subscriptions.userId, userIds)) : Promise.resolve([]),
    purchasesOf: (userIds: string[]) =>
      userIds.length
        ? db.select().from(purchases).where(inArray(purchases.userId, userIds)).orderBy(desc(purchases.createdAt))
        : Promise.resolve([]),

    /** The member card's grants: these members' grants giving access now or later, the latest start first. */
    grantsOf: (userIds: string[], now: Date) =>
      userIds.length
        ? db
            .select()
            .from(accessGrants)
            .where(and(inArray(accessGrants.userId, userIds), or(isNull(accessGrants.endsAt), gt(accessGrants.endsAt, now))))
            .orderBy(desc(accessGrants.startsAt))
        : Promise.resolve([]),

    /** Members per access level. */
    membersByLevel: () => db.select({ level: profiles.accessLevel, n: count() }).from(profiles).groupBy(profiles.accessLevel),

    /**
     * Paying members and monthly recurring revenue (cents) over subscriptions that pay at `now` (a
     * granting status other than a free trial, no cancellation already in effect), each counted as
     * the revenue history counts it (payments/revenue/mrr.ts): a running offer's discount taken off
     * (forever, or repeating and not yet over), a year's price a twelfth, rounded half up per subscription.
     */
    async revenue(now: Date) {
      const at = sql`${now.toISOString()}::timestamptz`;
      const discount = sql`(select o.percent_off, o.amount_off from ${offerRedemptions} r join ${offers} o on o.id = r.offer_id
        where r.subscription_id = ${subscriptions.id} and r.status = 'redeemed'
          and (o.duration = 'forever' or (o.duration = 'repeating'
            and r.redeemed_at + make_interval(months => coalesce(o.duration_in_months, 1)) > ${at}))
        order by r.redeemed_at desc limit 1)`;
      const price = sql`case when d.percent_off is not null then greatest(0, round(${subscriptions.amount} * (100 - d.percent_off) / 100.0))
        when d.amount_off is not null then greatest(0, ${subscriptions.amount} - d.amount_off) else ${subscriptions.amount} end`;
      const [row] = await db
        .select({
          paying: sql<number>`count(distinct ${subscriptions.userId})::int`,
          mrr: sql<number>`coalesce(sum(case when ${subscriptions.interval} = 'year' then round(${price} / 12.0)
            when ${subscriptions.interval} = 'week' then round(${price} * 52 / 12.0)
            when ${subscriptions.interval} = 'day' then round(${price} * 365 / 12.0)
            else ${price} end), 0)::int`,
        })
        .from(subscriptions)
        .leftJoin(sql`lateral ${discount} as d`, sql`true`)
        .where(
          and(
            inArray(subscriptions.status, PAYING_STATUSES),
            sql`(${subscriptions.cancelAt} is null or ${subscriptions.cancelAt} > ${at})`,
          ),
        );
      return { paying: row?.paying ?? 0, mrr: row?.mrr ?? 0 };
    },

    /** Sign-ups per UTC day since `since`. */
    signupsPerDay(since: Date) {
      const day = sql<string>`to_char(${profiles.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
      return db.select({ day, n: count() }).from(profiles).where(gte(profiles.createdAt, since)).groupBy(day);
    },

    /** Subscriptions that ended, per UTC day since `since`. */
    cancellationsPerDay(since: Date) {
      const day = sql<string>`to_char(${subscriptions.endedAt} at time zone 'UTC', 'YYYY-MM-DD')`;
      return db
        .select({ day, n: count() })
        .from(subscriptions)
        .where(and(isNotNull(subscriptions.endedAt), gte(subscriptions.endedAt, since)))
        .groupBy(day);
    },

    /** Subscriptions set to end at the period's end that still grant access. */
    async pendingCancellations(now: Date) {
      const [row] = await db
        .select({ n: count() })
        .from(subscriptions)
        .where(
          and(
            inArray(subscriptions.status, [...GRANTING_STATUSES]),
            sql`(${subscriptions.cancelAtPeriodEnd} or ${subscriptions.cancelAt} > ${now.toISOString()}::timestamptz)`,
          ),
        );
      return row?.n ?? 0;
    },

    /** Leads, confirmed newsletter subscribers and failed emails, in one round trip. */
    async totals() {
      const [row] = await db
        .select({
          leads: sql<number>`(select count(*) from ${leads})::int`,
          newsletterConfirmed: sql<number>`(select count(*) from ${newsletterSubscribers} where ${newsletterSubscribers.status} = 'confirmed')::int`,
          failedEmails: sql<number>`(select count(*) from ${emails} where ${emails.status} = 'failed')::int`,
        })
        .from(sql`(select 1) as one`);
      return row!;
    },
  };
}
