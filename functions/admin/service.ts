/**
 * The admin dashboard's Users tab and Overview (issue 11): member search with level, role,
 * subscription, grants and purchases; the audit log; and Ghost-style figures (members by level, paying
 * members, monthly recurring revenue, sign-ups and cancellations per day, leads, newsletter
 * confirmations, failed emails), each an aggregate query. Changes to a member go through the user
 * service (one rule, one audit trail). The routes check the admin role.
 */
import { ACCESS_LEVELS, type AccessLevel } from '#shared/access.ts';
import { CURRENCY } from '../payments/index.ts';
import { GRANTING_STATUSES } from '../payments/index.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import type { ProfileRow } from '../users/index.ts';
import type { PurchaseRow, SubscriptionRow } from '../payments/index.ts';
import type { AccessGrantRow } from '../payments/index.ts';
import { memberDirectory } from '../users/index.ts';
import { createAdminStore } from './store.ts';
import type { MemberFilter } from '#shared/members.ts';
import type { MemberService } from '../members/index.ts';

/** Days of sign-ups and cancellations the overview charts. */
export const OVERVIEW_DAYS = 90;
const DAY_MS = 86_400_000;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The member's subscription that matters most: one granting access, else the newest. */
function currentSubscription(rows: SubscriptionRow[]): SubscriptionRow | undefined {
  const granting = (s: SubscriptionRow) => (GRANTING_STATUSES as readonly string[]).includes(s.status);
  return [...rows].sort((a, b) => Number(granting(b)) - Number(granting(a)) || b.createdAt.getTime() - a.createdAt.getTime())[0];
}

function memberJson(
  p: ProfileRow,
  subs: SubscriptionRow[],
  bought: PurchaseRow[],
  grants: AccessGrantRow[],
  labels: string[],
  lastSeenAt: Date | null,
  now: Date,
) {
  const s = currentSubscription(subs);
  return {
    id: p.id,
    email: p.email,
    name: p.name,
    accessLevel: p.accessLevel,
    role: p.role,
    createdAt: p.createdAt.toISOString(),
    lastSeenAt: iso(lastSeenAt),
    labels,
    /** Where they came from: their first page's referrer and UTM parameters, kept at sign-up. */
    signup: {
      referrer: p.signupReferrer,
      utmSource: p.signupUtmSource,
      utmMedium: p.signupUtmMedium,
      utmCampaign: p.signupUtmCampaign,
    },
    subscription: s
      ? {
          subscriptionId: s.id,
          status: s.status,
          tierId: s.tierId,
          accessLevel: s.accessLevel,
          amount: s.amount,
          interval: s.interval,
          cancelAtPeriodEnd: s.cancelAtPeriodEnd || Boolean(s.cancelAt),
          currentPeriodEnd: (s.cancelAt ?? s.currentPeriodEnd).toISOString(),
          endedAt: iso(s.endedAt),
        }
      : null,
    /** What the level rests on now and later (the grants ledger), with staff's notes. */
    grants: grants.map((g) => ({
      id: g.id,
      accessLevel: g.accessLevel,
      source: g.source,
      startsAt: g.startsAt.toISOString(),
      endsAt: iso(g.endsAt),
      active: g.startsAt <= now,
      note: g.note,
    })),
    purchases: bought.map((b) => ({
      id: b.id,
      itemType: b.itemType,
      itemSlug: b.itemSlug,
      title: b.title,
      amount: b.amount,
      currency: b.currency,
      createdAt: b.createdAt.toISOString(),
    })),
  };
}
export type MemberJson = ReturnType<typeof memberJson>;

/** `count` per day for the `days` UTC days ending today, zeros included, oldest first. */
function perDay(rows: { day: string; n: number }[], start: Date, days: number) {
  const counts = new Map(rows.map((r) => [r.day, Number(r.n)]));
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(start.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    return { date: day, count: counts.get(day) ?? 0 };
  });
}

export function createAdminService({
  db,
  roster,
  clock = () => new Date(),
}: {
  db: DbOrTx;
  roster: Pick<MemberService, 'page'>;
  clock?: () => Date;
}) {
  const store = createAdminStore(db);
  const members = memberDirectory(db);
  return {
    /** GET /api/admin/users: the members the filter picks, `limit` per page (page from 1), newest first. */
    async searchUsers({ page, limit, ...filter }: MemberFilter & { page: number; limit: number }) {
      const { rows, total, labels, lastSeen } = await roster.page(filter, (page - 1) * limit, limit);
      const ids = rows.map((r) => r.id);
      const now = clock();
      const [subs, bought, grants] = await Promise.all([store.subscriptionsOf(ids), store.purchasesOf(ids), store.grantsOf(ids, now)]);
      return {
        users: rows.map((p) =>
          memberJson(
            p,
            subs.filter((s) => s.userId === p.id),
            bought.filter((b) => b.userId === p.id),
            grants.filter((g) => g.userId === p.id),
            labels.get(p.id) ?? [],
            lastSeen.get(p.id) ?? null,
            now,
          ),
        ),
        page,
        limit,
        total,
      };
    },

    /** GET /api/admin/audit: newest entries first, about one member when `targetId` is given. */
    async audit({ targetId, limit }: { targetId?: string | undefined; limit: number }) {
      const rows = await members.auditTrail(targetId, limit);
      return rows.map((r) => ({
        id: r.id,
        action: r.action,
        detail: r.detail,
        createdAt: r.createdAt.toISOString(),
        actor: { id: r.actorId, email: r.actorEmail },
        target: { id: r.targetId, email: r.targetEmail },
      }));
    },

    /** GET /api/admin/overview. */
    async overview() {
      const now = clock();
      const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
      const since = new Date(today - (OVERVIEW_DAYS - 1) * DAY_MS);
      const [levels, revenue, signups, cancellations, pending, totals] = await Promise.all([
        store.membersByLevel(),
        store.revenue(now),
        store.signupsPerDay(since),
        store.cancellationsPerDay(since),
        store.pendingCancellations(now),
        store.totals(),
      ]);
      const membersByLevel = Object.fromEntries(ACCESS_LEVELS.map((l) => [l, 0])) as Record<AccessLevel, number>;
      for (const row of levels) membersByLevel[row.level] = Number(row.n);
      return {
        generatedAt: now.toISOString(),
        members: { total: Object.values(membersByLevel).reduce((a, b) => a + b, 0), byLevel: membersByLevel },
        payingMembers: revenue.paying,
        monthlyRecurringRevenue: { amount: revenue.mrr, currency: CURRENCY },
        pendingCancellations: Number(pending),
        days: OVERVIEW_DAYS,
        signups: perDay(signups, since, OVERVIEW_DAYS),
        cancellations: perDay(cancellations, since, OVERVIEW_DAYS),
        leads: totals.leads,
        newsletterConfirmed: totals.newsletterConfirmed,
        failedEmails: totals.failedEmails,
      };
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
