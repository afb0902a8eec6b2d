/**
 * The support desk (premium's "priority support", every level's help): a member opens a request
 * (subject, message, an optional attachment), reads their own requests and the replies, and replies;
 * staff work one queue (Priority first, then the oldest), assign a request to a staff member, reply
 * (mailed to the member through the outbox, in the reply's transaction, with a link back), add
 * internal notes (never in a member's answer, export or mail) and set the status: open (staff's
 * turn), waiting (on the member) or closed. A member's reply makes it staff's turn again. The
 * first-response target is fixed when the request opens, from the member's level then
 * (#shared/support/business-days.ts). Ownership is checked on every read and write: another member's
 * request is a 404, exactly like one that does not exist.
 */
import { isStaff } from '#shared/access.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import { AppError } from '../platform/errors.ts';
import { memberDirectory } from '../users/index.ts';
import type { PersonalDataSource } from '../users/index.ts';
import type { Viewer } from '../users/index.ts';
import { nameForType } from './attachments.ts';
import type { ListQuery } from './schema.ts';
import { decodeCursor, encodeCursor, requestAnswer } from './answers.ts';
import { LIMITS, MAX_MEMBER_MESSAGES } from './rules.ts';
import { createSupportStore } from './store.ts';
import { asStaff, conversation, people, roomFor, visible, withinLimit, type SupportParts, type SupportServiceDeps } from './steps.ts';
import { openings, replies } from './writes.ts';

/** Reads: the lists, a conversation, an attachment, the staff to assign, the checks before a write, a member's data. */
function supportReads(deps: SupportParts) {
  const { db, attachments, directory } = deps;
  return {
    /** GET /api/support/requests: the caller's own requests, newest first; staff's queue (every member's), Priority first, then oldest. */
    async list(viewer: Viewer, query: ListQuery) {
      const after = decodeCursor(query.cursor);
      const store = createSupportStore(db);
      const staffView = isStaff(viewer.role) && query.scope === 'all';
      // One more than asked: whether another page follows.
      const rows = staffView
        ? await store.queue(query.status, query.limit + 1, after)
        : await store.mine(viewer.id, query.limit + 1, after && { createdAt: after.createdAt, id: after.id });
      const page = rows.slice(0, query.limit);
      const counts = await store.counts(
        page.map((r) => r.id),
        { internal: staffView },
      );
      const names = staffView
        ? await people(
            db,
            page.flatMap((r) => [r.userId, r.assigneeId]),
          )
        : undefined;
      return {
        requests: page.map((r) => requestAnswer(r, counts.get(r.id) ?? 0, names)),
        nextCursor: rows.length > query.limit ? encodeCursor(page.at(-1)!) : null,
      };
    },

    /** Whether the caller may open a request now (asked before its body, and its file, are read). */
    mayOpen: (viewer: Viewer) => withinLimit(deps, viewer, LIMITS.open),

    /** Whether the caller may reply to this request now: theirs (or staff's), and within the limit. */
    async mayReply(viewer: Viewer, id: string): Promise<void> {
      const request = await visible(deps, viewer, id);
      if (asStaff(viewer, request)) return;
      await withinLimit(deps, viewer, LIMITS.message);
      await roomFor(createSupportStore(db), id);
    },
    /** GET /api/support/requests/{id}: the request and its messages (internal notes for staff only). */
    get: (viewer: Viewer, id: string) => conversation(deps, viewer, id),

    /** An attachment of a message the caller may see: the member's own request (not an internal note's), or any for staff. */
    async attachment(viewer: Viewer, requestId: string, messageId: string) {
      const request = await visible(deps, viewer, requestId);
      const row = await createSupportStore(db).message(requestId, messageId);
      if (!row?.attachmentKey || (row.internal && !asStaff(viewer, request))) throw new AppError('not_found', 'No such attachment.');
      const object = await attachments.open(row.attachmentKey);
      if (!object) throw new AppError('not_found', 'The attachment is no longer available.');
      const type = row.attachmentType ?? object.contentType;
      return {
        name: nameForType(row.attachmentName ?? 'attachment', type),
        type,
        size: object.size,
        body: object.body,
      };
    },

    /** Editors and admins: whom a request may be assigned to. */
    async staff() {
      const rows = await directory.staff();
      return { staff: rows.map((p) => ({ id: p.id, name: p.name?.trim() || p.email, email: p.email })) };
    },

    /**
     * The member's part of an export (their requests with the messages they can see) and of an
     * account deletion: the requests go (their messages with them), then their attachments leave
     * storage. Registered in compose.ts.
     */
    personalData: ((tx: DbOrTx) => {
      const store = createSupportStore(tx);
      return {
        personalData: (subject) => store.personalData(subject),
        async erase({ id }) {
          const keys = await store.eraseRequests(id);
          // Storage is not in the transaction: the objects go once the deletion has committed.
          return () => attachments.remove(keys);
        },
      };
    }) satisfies PersonalDataSource,
  };
}

export function createSupportService(options: SupportServiceDeps) {
  const deps: SupportParts = { ...options, clock: options.clock ?? (() => new Date()), directory: memberDirectory(options.db) };
  return { ...supportReads(deps), ...openings(deps), ...replies(deps) };
}

export { MAX_MEMBER_MESSAGES, type SupportServiceDeps };

export type SupportService = ReturnType<typeof createSupportService>;
