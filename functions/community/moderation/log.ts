/**
 * The moderation log as staff read it: newest first, 50 a page, keyset-paged by the last entry's id
 * (the database compares the entry's own `(created_at, id)`, so no timestamp goes through a cursor
 * and loses its microseconds). Each entry names its actor and the member it concerned as they are
 * now (null once the account is gone); ids stay, since the log is kept forever.
 */
import type { DbOrTx } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors.ts';
import { people } from './people.ts';
import { LOG_PAGE, type ModerationStore } from './store.ts';

export function createModerationLog(db: DbOrTx, store: ModerationStore) {
  return {
    /** One page after `cursor` (an entry id from `nextCursor`); 422 for a cursor that names no entry. */
    async page(cursor: string | undefined) {
      if (cursor !== undefined && !(await store.hasLogEntry(cursor)))
        throw new AppError('validation_failed', 'The query is not valid.', { fields: { cursor: ['cursor is not valid'] } });
      const rows = await store.logPage(cursor, LOG_PAGE);
      const page = rows.slice(0, LOG_PAGE);
      const who = await people(
        db,
        store,
        page.flatMap((r) => [r.actorId, r.targetUserId]),
      );
      return {
        items: page.map((row) => ({
          id: row.id,
          /** One of `LOG_ACTIONS` (#shared/community/moderation.ts); a name a later version adds reads as itself. */
          action: row.action,
          actor: who.get(row.actorId),
          threadId: row.threadId,
          postId: row.postId,
          target: who.get(row.targetUserId),
          targetUserId: row.targetUserId,
          detail: row.detail,
          createdAt: row.createdAt.toISOString(),
        })),
        nextCursor: rows.length > LOG_PAGE ? page.at(-1)!.id : null,
      };
    },
  };
}
