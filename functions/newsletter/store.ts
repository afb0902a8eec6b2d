/** The only module that touches newsletter_subscribers (issues, copies and suppressions: issues/store.ts). */
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.ts';
import type { DataSubject } from '../users/index.ts';
import { newsletterSubscribers, type SubscriberRow } from './tables.ts';

export function createNewsletterStore(db: DbOrTx) {
  return {
    /** List entries a members import brings (an address on the list already keeps its entry); answers how many were new. */
    async insertMany(rows: (typeof newsletterSubscribers.$inferInsert)[]): Promise<number> {
      if (rows.length === 0) return 0;
      return (await db.insert(newsletterSubscribers).values(rows).onConflictDoNothing().returning({ id: newsletterSubscribers.id })).length;
    },

    /** The list entries of these (lower-case) addresses. */
    byEmails: (emails: string[]) =>
      emails.length ? db.select().from(newsletterSubscribers).where(inArray(newsletterSubscribers.email, emails)) : Promise.resolve([]),

    /** Inserts a pending subscriber, or returns undefined when the address exists already. */
    async insertPending(email: string, source: string | null): Promise<SubscriberRow | undefined> {
      const [row] = await db
        .insert(newsletterSubscribers)
        .values({ email, consentSource: source })
        .onConflictDoNothing({ target: newsletterSubscribers.email })
        .returning();
      return row;
    },

    /** The subscriber row for an address, locked until the transaction ends. */
    async lockByEmail(email: string): Promise<SubscriberRow | undefined> {
      const [row] = await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)).for('update');
      return row;
    },

    async findById(id: string): Promise<SubscriberRow | undefined> {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
      const [row] = await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.id, id)).limit(1);
      return row;
    },

    /** Records fresh consent; a returning (unsubscribed) address becomes pending with a new token version. */
    async renewConsent(row: SubscriberRow, source: string | null): Promise<SubscriberRow> {
      const restart = row.status === 'unsubscribed';
      const [updated] = await db
        .update(newsletterSubscribers)
        .set({
          consentSource: source,
          consentAt: sql`now()`,
          updatedAt: sql`now()`,
          ...(restart ? { status: 'pending' as const, tokenVersion: row.tokenVersion + 1, unsubscribedAt: null } : {}),
        })
        .where(eq(newsletterSubscribers.id, row.id))
        .returning();
      return updated!;
    },

    async setStatus(id: string, status: 'confirmed' | 'unsubscribed'): Promise<void> {
      await db
        .update(newsletterSubscribers)
        .set({
          status,
          updatedAt: sql`now()`,
          ...(status === 'confirmed' ? { confirmedAt: sql`now()` } : { unsubscribedAt: sql`now()` }),
        })
        .where(eq(newsletterSubscribers.id, id));
    },

    /** Every confirmed subscriber's address: the list's part of an issue's audience. */
    async confirmedAddresses(): Promise<string[]> {
      const rows = await db
        .select({ email: newsletterSubscribers.email })
        .from(newsletterSubscribers)
        .where(eq(newsletterSubscribers.status, 'confirmed'));
      return rows.map((r) => r.email);
    },

    /** Takes an address off the list (an unsubscribe from an issue's copy); nothing when it is not on it. */
    async unsubscribeAddress(email: string): Promise<void> {
      await db
        .update(newsletterSubscribers)
        .set({ status: 'unsubscribed', unsubscribedAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(newsletterSubscribers.email, email), ne(newsletterSubscribers.status, 'unsubscribed')));
    },

    /** The member's part of their data export: the subscription of their address. */
    async personalData({ email }: DataSubject) {
      return { subscriptions: await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)) };
    },

    /** Deletes the subscription of the member's address (account deletion). */
    async erase({ email }: DataSubject): Promise<void> {
      await db.delete(newsletterSubscribers).where(eq(newsletterSubscribers.email, email));
    },
  };
}
