/** The members' tables: profiles and the audit log. The only module with SQL on them. */
import { aliasedTable, and, count, desc, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { AccessLevel } from '#shared/access.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import { auditLog, memberSeen, profiles, type ProfileRow } from './tables.ts';

/** Carries the id of a profile changed or deleted anywhere, at commit (a trigger on `profiles`, migration 0010). */
export const PROFILE_CHANNEL = 'profile_changed';

/** A member as the newsletter reads them (functions/users/newsletter-readers.ts). */
const NEWSLETTER_COLUMNS = {
  id: profiles.id,
  email: profiles.email,
  accessLevel: profiles.accessLevel,
  role: profiles.role,
  newsletter: profiles.newsletter,
};

/** A LIKE pattern matching `text` anywhere, with its wildcards taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** A member a members import makes (a free member; the level comes from comps). */
export interface NewMember {
  id: string;
  email: string;
  name: string | null;
  newsletter: boolean | null;
  customerId: string | null;
  signupReferrer: string | null;
  signupUtmSource: string | null;
  signupUtmMedium: string | null;
  signupUtmCampaign: string | null;
  createdAt: Date | null;
}
/** What a bulk insert answers of each member it made (what their member.created event carries). */
export type NewMemberRow = Pick<ProfileRow, 'id' | 'email' | 'name' | 'accessLevel' | 'role'>;

/** What the parts of `createUserStore` share. */
interface StoreDeps {
  db: DbOrTx;
}

/** Profiles found, locked and made (one or many). */
function profileRows({ db }: StoreDeps) {
  return {
    async byId(id: string): Promise<ProfileRow | undefined> {
      const [row] = await db.select().from(profiles).where(eq(profiles.id, id));
      return row;
    },
    /** The profiles among `ids` (missing ones left out), in no particular order. */
    byIds(ids: string[]): Promise<ProfileRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db.select().from(profiles).where(inArray(profiles.id, ids));
    },
    /** The profile locked until the transaction ends (billing's level recompute takes the same lock). */
    async lockById(id: string): Promise<ProfileRow | undefined> {
      const [row] = await db.select().from(profiles).where(eq(profiles.id, id)).for('update');
      return row;
    },
    async byEmail(email: string): Promise<ProfileRow | undefined> {
      const [row] = await db.select().from(profiles).where(eq(profiles.email, email));
      return row;
    },
    /** Inserts a profile unless one exists; returns the stored one either way, and whether this call made it. */
    async ensure(values: typeof profiles.$inferInsert): Promise<{ row: ProfileRow; created: boolean }> {
      const [inserted] = await db.insert(profiles).values(values).onConflictDoNothing().returning();
      if (inserted) return { row: inserted, created: true };
      const [row] = await db.select().from(profiles).where(eq(profiles.id, values.id));
      return { row: row!, created: false };
    },
    /** Inserts many profiles at once (a members import); an id or address already there is left alone. */
    async insertMany(values: NewMember[]): Promise<NewMemberRow[]> {
      if (values.length === 0) return [];
      // One JSON parameter for the rows: bound values cost the query builder about 35 kB of garbage a row.
      const rows = JSON.stringify(
        values.map((v) => ({
          id: v.id,
          email: v.email,
          name: v.name,
          newsletter: v.newsletter,
          customer_id: v.customerId,
          signup_referrer: v.signupReferrer,
          signup_utm_source: v.signupUtmSource,
          signup_utm_medium: v.signupUtmMedium,
          signup_utm_campaign: v.signupUtmCampaign,
          created_at: v.createdAt?.toISOString() ?? null,
        })),
      );
      const result = await db.execute(sql`insert into ${profiles} (id, email, name, newsletter, customer_id,
          signup_referrer, signup_utm_source, signup_utm_medium, signup_utm_campaign, created_at)
        select r.id, r.email, r.name, r.newsletter, r.customer_id, r.signup_referrer, r.signup_utm_source,
          r.signup_utm_medium, r.signup_utm_campaign, coalesce(r.created_at, now())
        from jsonb_to_recordset(${rows}::jsonb) as r(id uuid, email text, name text, newsletter boolean, customer_id text,
          signup_referrer text, signup_utm_source text, signup_utm_medium text, signup_utm_campaign text, created_at timestamptz)
        on conflict do nothing returning id, email, name, access_level as "accessLevel", role`);
      return (result as unknown as { rows: NewMemberRow[] }).rows;
    },
  };
}

/** Profiles changed: seen, updated, billing's customer, the audit entries, removal. */
function profileWrites({ db }: StoreDeps) {
  return {
    /** The profiles of these (lower-case) addresses. */
    profilesByEmails(emails: string[]): Promise<ProfileRow[]> {
      if (emails.length === 0) return Promise.resolve([]);
      return db.select().from(profiles).where(inArray(profiles.email, emails));
    },
    /** Who holds each of these payment customers. */
    customerHolders(customerIds: string[]) {
      if (customerIds.length === 0) return Promise.resolve([]);
      return db
        .select({ id: profiles.id, customerId: profiles.customerId })
        .from(profiles)
        .where(inArray(profiles.customerId, customerIds));
    },
    /** Marks the member seen now, unless they were seen within the hour (one write an hour at most). */
    async touchSeen(id: string): Promise<void> {
      await db
        .insert(memberSeen)
        .select(sql`select ${profiles.id}, now() from ${profiles} where ${profiles.id} = ${id}`)
        .onConflictDoUpdate({
          target: memberSeen.userId,
          set: { lastSeenAt: sql`now()` },
          setWhere: sql`${memberSeen.lastSeenAt} < now() - interval '1 hour'`,
        });
    },
    async update(id: string, patch: Partial<typeof profiles.$inferInsert>): Promise<ProfileRow | undefined> {
      const [row] = await db
        .update(profiles)
        .set({ ...patch, updatedAt: sql`now()` })
        .where(eq(profiles.id, id))
        .returning();
      return row;
    },
    async audit(entry: typeof auditLog.$inferInsert) {
      await db.insert(auditLog).values(entry);
    },
    /** The profile of a payment provider's customer, locked until the transaction ends (billing's sync). */
    async lockByCustomerId(customerId: string): Promise<ProfileRow | undefined> {
      const [row] = await db.select().from(profiles).where(eq(profiles.customerId, customerId)).for('update');
      return row;
    },
    /** Sets the provider customer unless one is set (a conditional write settles a race); answers it when this write set it. */
    async claimCustomerId(id: string, customerId: string): Promise<string | undefined> {
      const [won] = await db
        .update(profiles)
        .set({ customerId })
        .where(and(eq(profiles.id, id), isNull(profiles.customerId)))
        .returning({ customerId: profiles.customerId });
      return won?.customerId ?? undefined;
    },
    /** Writes billing's columns as given: unlike `update`, `updatedAt` moves only when billing passes its clock's now. */
    async setBilling(
      id: string,
      patch: Partial<Pick<ProfileRow, 'customerId' | 'accessLevel' | 'accessUntil' | 'updatedAt'>>,
    ): Promise<void> {
      await db.update(profiles).set(patch).where(eq(profiles.id, id));
    },
    /** Audit entries about a member, with one of these actions, whose detail names a checkout session. */
    async auditOfSession(targetId: string, actions: string[], sessionId: string) {
      return db
        .select({ action: auditLog.action, detail: auditLog.detail })
        .from(auditLog)
        .where(
          and(eq(auditLog.targetId, targetId), inArray(auditLog.action, actions), sql`${auditLog.detail}->>'sessionId' = ${sessionId}`),
        );
    },
    /** Deletes the profile (the member's other data is erased by each domain first: personal-data.ts). */
    async remove(id: string): Promise<void> {
      await db.delete(profiles).where(eq(profiles.id, id));
    },
  };
}

/** What the admin's users tab reads: staff, the search, the audit trail. */
function staffQueries({ db }: StoreDeps) {
  return {
    /** Every editor and admin, by name (the support desk's assignees). */
    staff(): Promise<ProfileRow[]> {
      return db
        .select()
        .from(profiles)
        .where(inArray(profiles.role, ['editor', 'admin']))
        .orderBy(profiles.name, profiles.email);
    },
    /** One page of profiles whose email or name contains `q` (all when empty), newest first, and the total. */
    async search(q: string | undefined, offset: number, limit: number) {
      const where = q ? or(ilike(profiles.email, containing(q)), ilike(profiles.name, containing(q))) : undefined;
      const [rows, [total]] = await Promise.all([
        db.select().from(profiles).where(where).orderBy(desc(profiles.createdAt), profiles.id).limit(limit).offset(offset),
        db.select({ n: count() }).from(profiles).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },
    /** Newest audit entries (about one member when given), with the actor's and target's current addresses. */
    auditTrail(targetId: string | undefined, limit: number) {
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
  };
}

/** Members as the newsletter and the private feeds read them. */
function readerQueries({ db }: StoreDeps) {
  return {
    /**
     * Members at one of `levels` who get the newsletter: those who asked for it, and those who never
     * chose whose level (`included`) has it by default. Only what an issue's copy needs.
     */
    newsletterReaders(levels: AccessLevel[], included: AccessLevel[]) {
      if (levels.length === 0) return Promise.resolve([]);
      return db
        .select(NEWSLETTER_COLUMNS)
        .from(profiles)
        .where(
          and(
            inArray(profiles.accessLevel, levels),
            or(eq(profiles.newsletter, true), and(isNull(profiles.newsletter), inArray(profiles.accessLevel, included))),
          ),
        );
    },
    /** The members among `ids` who get the newsletter (asked for it, or never chose and their level has it). */
    newsletterReadersAmong(ids: string[], included: AccessLevel[]) {
      if (ids.length === 0) return Promise.resolve([]);
      return db
        .select(NEWSLETTER_COLUMNS)
        .from(profiles)
        .where(
          and(
            inArray(profiles.id, ids),
            or(eq(profiles.newsletter, true), and(isNull(profiles.newsletter), inArray(profiles.accessLevel, included))),
          ),
        );
    },
    /** The members among these (lower-case) addresses, with what an issue's copy needs. */
    byEmails(emails: string[]) {
      if (emails.length === 0) return Promise.resolve([]);
      return db.select(NEWSLETTER_COLUMNS).from(profiles).where(inArray(profiles.email, emails));
    },
    /** What a member's private feed needs: their level, role and feed link version. */
    async feedMember(id: string) {
      const [row] = await db
        .select({ accessLevel: profiles.accessLevel, role: profiles.role, v: profiles.feedVersion })
        .from(profiles)
        .where(eq(profiles.id, id));
      return row;
    },
    /** Bumps the feed link version (revoking every earlier link); answers the new one. */
    async bumpFeedVersion(id: string): Promise<number | undefined> {
      const [row] = await db
        .update(profiles)
        .set({ feedVersion: sql`${profiles.feedVersion} + 1` })
        .where(eq(profiles.id, id))
        .returning({ v: profiles.feedVersion });
      return row?.v;
    },
  };
}

export function createUserStore(db: DbOrTx) {
  const deps: StoreDeps = { db };
  return { ...profileRows(deps), ...profileWrites(deps), ...staffQueries(deps), ...readerQueries(deps) };
}

export type UserStore = ReturnType<typeof createUserStore>;
