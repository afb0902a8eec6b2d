/**
 * The newsletter's part of a members import (functions/members/csv): list entries whose consent the
 * file proves (a confirmed entry with the date consent was given) are kept as they were; an address
 * the file puts on the list without that proof gets the double opt-in mail instead (`subscribe`), so
 * nobody is subscribed by an import alone. Suppressions (bounces, complaints) come across as they were.
 */
import type { DbOrTx } from '../platform/db/client.ts';
import { createIssueStore } from './issues/store.ts';
import { createNewsletterStore } from './store.ts';
import type { SUBSCRIBER_STATUSES } from './tables.ts';

/** One address's list entry as the file gives it. */
export interface ImportedListEntry {
  email: string;
  status: (typeof SUBSCRIBER_STATUSES)[number];
  consentAt: Date;
  consentSource: string | null;
}

export function listImports(db: DbOrTx) {
  const store = createNewsletterStore(db);
  return {
    /** The addresses among these that have a list entry already. */
    async listed(emails: string[]): Promise<Set<string>> {
      return new Set((await store.byEmails(emails)).map((r) => r.email));
    },
    /** Writes proven entries as they were (confirmed with their consent, or unsubscribed); existing entries stay. */
    keep: (entries: ImportedListEntry[]) =>
      store.insertMany(
        entries.map((e) => ({
          email: e.email,
          status: e.status,
          consentAt: e.consentAt,
          consentSource: e.consentSource,
          confirmedAt: e.status === 'confirmed' ? e.consentAt : null,
          unsubscribedAt: e.status === 'unsubscribed' ? e.consentAt : null,
        })),
      ),
    /** Suppressed addresses as the file gives them. */
    suppress: (rows: { address: string; reason: string }[]) => createIssueStore(db).suppressMany(rows),
  };
}
