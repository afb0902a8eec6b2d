/** The admin dashboard's reads: member search with billing, the audit log with emails, and the overview aggregates. */
import { aliasedTable, and, count, desc, eq, gte, ilike, inArray, isNotNull, or, sql } from 'drizzle-orm';
import { GRANTING_STATUSES } from '../payments/provider.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import { auditLog, emails, leads, newsletterSubscribers, profiles, purchases, subscriptions } from '../platform/db/schema.ts';

/** A LIKE pattern matching `text` anywhere, with its wildcards taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

export function createAdminStore(db: DbOrTx) {
  return {
    /** One page of profiles whose email or name contains `q` (all when empty), newest first, and the total. */
    async searchProfiles(q: string | undefined, offset: number, limit: number) {
      const where = q ? or(ilike(profiles.email, containing(q)), ilike(profiles.name, containing(q))) : undefined;
      const [rows, [total]] = await Promise.all([
        db.select().from(profiles).where(where).orderBy(desc(profiles.createdAt), profiles.id).limit(limit).offset(offset),
        db.select({ n: count() }).from(profiles).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },
    subscriptionsOf: (userIds: string[]) =>
      userIds.length ? db.select().from(subscriptions).where(inArray(subscriptions.userId, userIds)) : Promise.resolve([]),
    purchasesOf: (userIds: string[]) =>
      userIds.length
        ? db.select().from(purchases).where(inArray(purchases.userId, userIds)).orderBy(desc(purchases.createdAt))
        : Promise.resolve([]),

    /** Newest audit entries (about one member when given), with the actor's and target's current addresses. */
    audit(targetId: string | undefined, limit: number) {
      const actor = aliasedTable(profiles, 'actor');
      const target = aliasedTable(profiles, 'target');
      return db
        .select({
          id: auditLog.id,
          action: auditLog.action,
          detail: auditLog.detail,
          createdAt: auditLog.createdAt,
          actorId: auditLog.actorId,
          actorEmail: actor.email,
          targetId: auditLog.targetId,
          targetEmail: target.email,
        })
        .from(auditLog)
        .leftJoin(actor, eq(actor.id, auditLog.actorId))
        .leftJoin(target, eq(target.id, auditLog.targetId))
        .where(targetId ? eq(auditLog.targetId, targetId) : undefined)
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
        .limit(limit);
    },

    /** Members per access level. */
    membersByLevel: () => db.select({ level: profiles.accessLevel, n: count() }).from(profiles).groupBy(profiles.accessLevel),

    /**
     * Paying members and monthly recurring revenue (cents) over subscriptions that grant access at
     * `now` (a granting status, no cancellation already in effect): yearly amounts count a twelfth.
     */
    async revenue(now: Date) {
      const [row] = await db
        .select({
          paying: sql<number>`count(distinct ${subscriptions.userId})::int`,
          mrr: sql<number>`coalesce(round(sum(case when ${subscriptions.interval} = 'year' then ${subscriptions.amount} / 12.0
            when ${subscriptions.interval} = 'week' then ${subscriptions.amount} * 52 / 12.0
            when ${subscriptions.interval} = 'day' then ${subscriptions.amount} * 365 / 12.0
            else ${subscriptions.amount} end)), 0)::int`,
        })
        .from(subscriptions)
        .where(
          and(
            inArray(subscriptions.status, [...GRANTING_STATUSES]),
            sql`(${subscriptions.cancelAt} is null or ${subscriptions.cancelAt} > ${now.toISOString()}::timestamptz)`,
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
