/** The members' tables: profiles, the audit log, and the personal data other domains keep by address. */
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.ts';
import {
  auditLog,
  contactMessages,
  courseProgress,
  leads,
  lessonCompletions,
  newsletterSubscribers,
  profiles,
  purchases,
  subscriptions as paidSubscriptions,
  type ProfileRow,
} from '../platform/db/schema.ts';

/** Carries the id of a profile changed or deleted anywhere, at commit (a trigger on `profiles`, migration 0010). */
export const PROFILE_CHANNEL = 'profile_changed';

export function createUserStore(db: DbOrTx) {
  return {
    async byId(id: string): Promise<ProfileRow | undefined> {
      const [row] = await db.select().from(profiles).where(eq(profiles.id, id));
      return row;
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
    /** Inserts a profile unless one exists; returns the stored one either way. */
    async ensure(values: typeof profiles.$inferInsert): Promise<ProfileRow> {
      const [inserted] = await db.insert(profiles).values(values).onConflictDoNothing().returning();
      if (inserted) return inserted;
      const [row] = await db.select().from(profiles).where(eq(profiles.id, values.id));
      return row!;
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
    /** Everything we keep about a member and their address, for the member's export. */
    async personalData(id: string, email: string) {
      const [subscriptions, downloads, messages, courses, completedLessons, plans, bought] = await Promise.all([
        db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)),
        db.select().from(leads).where(eq(leads.email, email)),
        db.select().from(contactMessages).where(eq(contactMessages.email, email)),
        db.select().from(courseProgress).where(eq(courseProgress.userId, id)),
        db.select().from(lessonCompletions).where(eq(lessonCompletions.userId, id)),
        db.select().from(paidSubscriptions).where(eq(paidSubscriptions.userId, id)),
        db.select().from(purchases).where(eq(purchases.userId, id)),
      ]);
      return {
        subscriptions,
        downloads,
        messages,
        courseProgress: { courses, completedLessons },
        billing: { subscriptions: plans, purchases: bought },
      };
    },
    /** Deletes the profile and the personal data kept by address (newsletter, leads, contact messages). */
    async deleteAll(id: string, email: string) {
      await db.delete(newsletterSubscribers).where(eq(newsletterSubscribers.email, email));
      await db.delete(leads).where(eq(leads.email, email));
      await db.delete(contactMessages).where(eq(contactMessages.email, email));
      await db.delete(profiles).where(eq(profiles.id, id));
    },
  };
}

export type UserStore = ReturnType<typeof createUserStore>;
