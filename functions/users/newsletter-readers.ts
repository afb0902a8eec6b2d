/**
 * Members as the newsletter domain reaches them (functions/newsletter): who at which levels gets an
 * issue, which list addresses belong to members (whose copy is cut at their level), the member a
 * copy was cut for, and a member ending the newsletter from a mail's unsubscribe link. The newsletter never imports the users store;
 * the SQL stays in store.ts, like billing's `memberAccess`.
 */
import { ACCESS_LEVELS, type AccessLevel, type Role } from '#shared/access.ts';
import { newsletterIncluded } from '#shared/newsletter.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import { createUserStore } from './store.ts';

/** A member as an issue's copy needs them: the address, the level the copy is cut at, their choice. */
export interface NewsletterReader {
  id: string;
  email: string;
  accessLevel: AccessLevel;
  role: Role;
  /** Their own choice; null: never chosen (their level's default applies). */
  newsletter: boolean | null;
}

/** `IN` lists of at most this many addresses per query. */
const CHUNK = 1000;
const INCLUDED = ACCESS_LEVELS.filter(newsletterIncluded);

export function newsletterReaders(db: DbOrTx) {
  const store = createUserStore(db);
  return {
    /** Members at one of `levels` who get the newsletter (their choice, or their level's default). */
    atLevels: (levels: AccessLevel[]): Promise<NewsletterReader[]> => store.newsletterReaders(levels, INCLUDED),

    /** The members among these lower-case addresses, whatever their choice. */
    async byEmails(emails: string[]): Promise<NewsletterReader[]> {
      const out: NewsletterReader[] = [];
      for (let i = 0; i < emails.length; i += CHUNK) out.push(...(await store.byEmails(emails.slice(i, i + CHUNK))));
      return out;
    },

    /** The members among `ids` (a segment's) who get the newsletter (their choice, or their level's default). */
    async receiving(ids: string[]): Promise<NewsletterReader[]> {
      const out: NewsletterReader[] = [];
      for (let i = 0; i < ids.length; i += CHUNK) out.push(...(await store.newsletterReadersAmong(ids.slice(i, i + CHUNK), INCLUDED)));
      return out;
    },

    /** One member by id, whatever their choice; undefined when there is none (any more). */
    async byId(id: string): Promise<NewsletterReader | undefined> {
      const profile = await store.byId(id);
      return (
        profile && {
          id: profile.id,
          email: profile.email,
          accessLevel: profile.accessLevel,
          role: profile.role,
          newsletter: profile.newsletter,
        }
      );
    },

    /** The member stops getting the newsletter (an unsubscribe link); nothing else about them changes. */
    async stop(id: string): Promise<void> {
      await store.update(id, { newsletter: false });
    },
  };
}

export type NewsletterReaders = ReturnType<typeof newsletterReaders>;
