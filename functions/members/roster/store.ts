/**
 * The member filter as SQL conditions on `profiles` (issue 35): the Users tab's list, the CSV export
 * and a segment's newsletter audience all narrow the members with these, so a segment mails exactly
 * the members its list shows. Read-only, over other domains' tables: the second documented exception
 * to "a store touches only its own domain's tables" beside admin/store.ts (each condition reads the
 * ledger, the subscriptions or the labels the way their owners write them; nothing here writes).
 */
import { and, asc, count, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { ACCESS_LEVELS } from '#shared/access.ts';
import type { MemberFilter } from '#shared/members.ts';
import { newsletterIncluded } from '#shared/newsletter.ts';
/* eslint-disable @typescript-eslint/no-restricted-imports -- the documented exception above: read-only. */
import { memberSeen, profiles } from '../../users/tables.ts';
import { subscriptions } from '../../payments/tables.ts';
import { accessGrants } from '../../payments/grants/tables.ts';
import { newsletterSubscribers, newsletterSuppressions } from '../../newsletter/tables.ts';
/* eslint-enable @typescript-eslint/no-restricted-imports */
import { labels, memberLabels } from '../tables.ts';
import type { DbOrTx } from '../../platform/db/client.ts';

const INCLUDED = ACCESS_LEVELS.filter(newsletterIncluded);
const DAY_MS = 86_400_000;

/** A LIKE pattern matching `text` anywhere, with its wildcards taken literally. */
export const containing = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

const startOf = (day: string) => new Date(`${day}T00:00:00Z`);
const endOf = (day: string) => new Date(startOf(day).getTime() + DAY_MS);

/** A granting subscription of the member matching `condition` (statuses as billing grants them). */
function subscriptionWhere(condition: SQL, now: Date): SQL {
  return sql`exists (select 1 from ${subscriptions} s where s.user_id = ${profiles.id}
    and s.status in ('active', 'trialing', 'past_due') and (s.cancel_at is null or s.cancel_at > ${now.toISOString()}::timestamptz)
    and ${condition})`;
}

function statusCondition(status: NonNullable<MemberFilter['status']>[number], now: Date): SQL {
  const cancelling = sql`(s.cancel_at_period_end or s.cancel_at is not null)`;
  if (status === 'active') return subscriptionWhere(sql`s.status in ('active', 'trialing') and not ${cancelling}`, now);
  if (status === 'cancelling') return subscriptionWhere(cancelling, now);
  if (status === 'past_due') return subscriptionWhere(sql`s.status = 'past_due'`, now);
  return sql`not ${subscriptionWhere(sql`true`, now)}`;
}

/** The conditions of `filter` on `profiles` (undefined: everyone). */
export function memberWhere(filter: MemberFilter, now: Date): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (filter.q) conditions.push(or(ilike(profiles.email, containing(filter.q)), ilike(profiles.name, containing(filter.q))));
  if (filter.level?.length) conditions.push(inArray(profiles.accessLevel, filter.level));
  if (filter.source?.length)
    conditions.push(sql`exists (select 1 from ${accessGrants} g where g.user_id = ${profiles.id}
      and g.source in ${filter.source} and g.starts_at <= ${now.toISOString()}::timestamptz
      and (g.ends_at is null or g.ends_at > ${now.toISOString()}::timestamptz))`);
  if (filter.status?.length) conditions.push(or(...filter.status.map((s) => statusCondition(s, now))));
  if (filter.label?.length)
    conditions.push(sql`exists (select 1 from ${memberLabels} ml join ${labels} l on l.id = ml.label_id
      where ml.user_id = ${profiles.id} and lower(l.name) in ${filter.label.map((l) => l.toLowerCase())})`);
  if (filter.newsletter) {
    // Their own choice, else their level's default (coalesce: `not` of a null would pick no one).
    const receives = sql`coalesce(${profiles.newsletter}, ${inArray(profiles.accessLevel, INCLUDED)})`;
    conditions.push(filter.newsletter === 'on' ? receives : sql`not ${receives}`);
  }
  if (filter.signup)
    conditions.push(
      or(
        ilike(profiles.signupUtmSource, containing(filter.signup)),
        ilike(profiles.signupUtmCampaign, containing(filter.signup)),
        ilike(profiles.signupReferrer, containing(filter.signup)),
      ),
    );
  if (filter.joinedFrom) conditions.push(gte(profiles.createdAt, startOf(filter.joinedFrom)));
  if (filter.joinedTo) conditions.push(lt(profiles.createdAt, endOf(filter.joinedTo)));
  const seen = (range: SQL) => sql`exists (select 1 from ${memberSeen} ms where ms.user_id = ${profiles.id} and ${range})`;
  if (filter.seenFrom) conditions.push(seen(sql`ms.last_seen_at >= ${startOf(filter.seenFrom).toISOString()}::timestamptz`));
  if (filter.seenTo) conditions.push(seen(sql`ms.last_seen_at < ${endOf(filter.seenTo).toISOString()}::timestamptz`));
  const present = conditions.filter((c): c is SQL => c !== undefined);
  return present.length ? and(...present) : undefined;
}

/** One member as the CSV file has them: the profile's columns and what other domains keep about them. */
export interface ExportRow {
  email: string;
  name: string | null;
  accessLevel: string;
  createdAt: Date;
  newsletter: boolean | null;
  customerId: string | null;
  signupReferrer: string | null;
  signupUtmSource: string | null;
  signupUtmMedium: string | null;
  signupUtmCampaign: string | null;
  labels: string | null;
  grants: { level: string; source: string; endsAt: string | null }[] | null;
  listStatus: string | null;
  consentAt: Date | null;
  consentSource: string | null;
  suppressed: string | null;
}

export function createRosterStore(db: DbOrTx) {
  return {
    /** One page of the members `where` picks, newest first, and how many it picks. */
    async page(where: SQL | undefined, offset: number, limit: number) {
      const [rows, [total]] = await Promise.all([
        db
          .select({ profile: profiles, lastSeenAt: memberSeen.lastSeenAt })
          .from(profiles)
          .leftJoin(memberSeen, eq(memberSeen.userId, profiles.id))
          .where(where)
          .orderBy(desc(profiles.createdAt), profiles.id)
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(profiles).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    /** The ids of every member `where` picks (a bulk label change, a segment's audience). */
    async ids(where: SQL | undefined): Promise<string[]> {
      return (await db.select({ id: profiles.id }).from(profiles).where(where)).map((r) => r.id);
    },

    /** Every member `where` picks, as the file has them, oldest first (a stable order, so two exports of one state are identical). */
    exportRows(where: SQL | undefined, now: Date): Promise<ExportRow[]> {
      const at = now.toISOString();
      return db
        .select({
          email: profiles.email,
          name: profiles.name,
          accessLevel: profiles.accessLevel,
          createdAt: profiles.createdAt,
          newsletter: profiles.newsletter,
          customerId: profiles.customerId,
          signupReferrer: profiles.signupReferrer,
          signupUtmSource: profiles.signupUtmSource,
          signupUtmMedium: profiles.signupUtmMedium,
          signupUtmCampaign: profiles.signupUtmCampaign,
          labels: sql<string | null>`(select string_agg(l.name, ';' order by lower(l.name)) from ${memberLabels} ml
            join ${labels} l on l.id = ml.label_id where ml.user_id = ${profiles.id})`,
          grants: sql<ExportRow['grants']>`(select json_agg(json_build_object('level', g.access_level, 'source', g.source,
            'endsAt', to_char(g.ends_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) order by g.starts_at, g.id)
            from ${accessGrants} g where g.user_id = ${profiles.id} and (g.ends_at is null or g.ends_at > ${at}::timestamptz))`,
          listStatus: newsletterSubscribers.status,
          consentAt: newsletterSubscribers.consentAt,
          consentSource: newsletterSubscribers.consentSource,
          suppressed: newsletterSuppressions.reason,
        })
        .from(profiles)
        .leftJoin(newsletterSubscribers, sql`${newsletterSubscribers.email} = ${profiles.email}`)
        .leftJoin(newsletterSuppressions, sql`${newsletterSuppressions.address} = ${profiles.email}`)
        .where(where)
        .orderBy(asc(profiles.createdAt), asc(profiles.email));
    },
  };
}
