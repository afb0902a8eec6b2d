/**
 * The only module with SQL on the support desk's tables. Lists are keyset pages: a member's own
 * requests newest first; staff's queue Priority (premium) first, then oldest first, so what waits
 * longest at the highest level is on top. A request's `updated_at` moves with what its member can
 * see (messages, status), never with an internal note or an assignment.
 */
import { and, asc, desc, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.ts';
import type { DataSubject } from '../users/index.ts';
import { supportMessages, supportRequests, type RequestStatus, type SupportMessageRow, type SupportRequestRow } from './tables.ts';

export type NewRequest = Pick<SupportRequestRow, 'userId' | 'subject' | 'level' | 'respondBy' | 'createdAt'>;
export type NewMessage = Pick<SupportMessageRow, 'requestId' | 'authorId' | 'fromStaff' | 'internal' | 'body' | 'createdAt'> &
  Partial<Pick<SupportMessageRow, 'attachmentKey' | 'attachmentName' | 'attachmentType' | 'attachmentSize'>>;
export type RequestPatch = Partial<Pick<SupportRequestRow, 'status' | 'assigneeId' | 'firstResponseAt' | 'closedAt' | 'updatedAt'>>;

/** Where the next page starts: the last row of this one. */
export interface RequestCursor {
  createdAt: Date;
  id: string;
  /** Staff's queue: whether the last row was Priority. */
  priority?: boolean;
}

/** Which requests a list holds. */
export type StatusFilter = RequestStatus | 'active' | 'all';

const PRIORITY = sql<boolean>`(${supportRequests.level} = 'premium')`;

function statusIs(filter: StatusFilter): SQL | undefined {
  if (filter === 'all') return undefined;
  if (filter === 'active') return inArray(supportRequests.status, ['open', 'waiting']);
  return eq(supportRequests.status, filter);
}

/** What the parts of `createSupportStore` share. */
interface StoreDeps {
  db: DbOrTx;
}

/** Requests and their messages: written, locked, read. */
function requestRows({ db }: StoreDeps) {
  return {
    async insertRequest(values: NewRequest): Promise<SupportRequestRow> {
      const [row] = await db
        .insert(supportRequests)
        .values({ ...values, updatedAt: values.createdAt })
        .returning();
      return row!;
    },
    async insertMessage(values: NewMessage): Promise<SupportMessageRow> {
      const [row] = await db.insert(supportMessages).values(values).returning();
      return row!;
    },
    async byId(id: string): Promise<SupportRequestRow | undefined> {
      const [row] = await db.select().from(supportRequests).where(eq(supportRequests.id, id));
      return row;
    },
    /** The request, locked until the transaction ends (a reply and a status change take turns). */
    async lock(id: string): Promise<SupportRequestRow | undefined> {
      const [row] = await db.select().from(supportRequests).where(eq(supportRequests.id, id)).for('update');
      return row;
    },
    async update(id: string, patch: RequestPatch): Promise<SupportRequestRow | undefined> {
      const [row] = await db.update(supportRequests).set(patch).where(eq(supportRequests.id, id)).returning();
      return row;
    },
    /** A request's messages, oldest first; internal notes only when asked for (staff). */
    messages(requestId: string, { internal }: { internal: boolean }): Promise<SupportMessageRow[]> {
      const where = internal
        ? eq(supportMessages.requestId, requestId)
        : and(eq(supportMessages.requestId, requestId), eq(supportMessages.internal, false));
      return db.select().from(supportMessages).where(where).orderBy(asc(supportMessages.createdAt), asc(supportMessages.id));
    },
    async message(requestId: string, messageId: string): Promise<SupportMessageRow | undefined> {
      const [row] = await db
        .select()
        .from(supportMessages)
        .where(and(eq(supportMessages.id, messageId), eq(supportMessages.requestId, requestId)));
      return row;
    },
  };
}

/** The member's list, staff's queue and its counts. */
function listRows({ db }: StoreDeps) {
  return {
    /** A member's own requests, newest first, from `after` on. */
    mine(userId: string, limit: number, after?: RequestCursor): Promise<SupportRequestRow[]> {
      const from =
        after &&
        sql`(${supportRequests.createdAt}, ${supportRequests.id}) < (${after.createdAt.toISOString()}::timestamptz, ${after.id}::uuid)`;
      return db
        .select()
        .from(supportRequests)
        .where(and(eq(supportRequests.userId, userId), from))
        .orderBy(desc(supportRequests.createdAt), desc(supportRequests.id))
        .limit(limit);
    },
    /** Staff's queue: Priority first, then the oldest, from `after` on. */
    queue(filter: StatusFilter, limit: number, after?: RequestCursor): Promise<SupportRequestRow[]> {
      // Priority sorts first: `not priority` is false (first) for premium requests.
      const from =
        after &&
        sql`(not ${PRIORITY}, ${supportRequests.createdAt}, ${supportRequests.id}) > (${!after.priority}::boolean, ${after.createdAt.toISOString()}::timestamptz, ${after.id}::uuid)`;
      return db
        .select()
        .from(supportRequests)
        .where(and(statusIs(filter), from))
        .orderBy(sql`not ${PRIORITY}`, asc(supportRequests.createdAt), asc(supportRequests.id))
        .limit(limit);
    },
    /** Message counts per request (internal notes counted only when asked for). */
    async counts(requestIds: string[], { internal }: { internal: boolean }): Promise<Map<string, number>> {
      if (requestIds.length === 0) return new Map();
      const rows = await db
        .select({ requestId: supportMessages.requestId, n: sql<number>`count(*)::int` })
        .from(supportMessages)
        .where(and(inArray(supportMessages.requestId, requestIds), internal ? undefined : eq(supportMessages.internal, false)))
        .groupBy(supportMessages.requestId);
      return new Map(rows.map((r) => [r.requestId, Number(r.n)]));
    },
  };
}

/** Attachments' keys, and a member's part of the export and erasure. */
function subjectRows({ db }: StoreDeps) {
  return {
    /** Every attachment of the member's requests (what deleting the account must remove from storage). */
    async attachmentKeysOf(userId: string): Promise<string[]> {
      const rows = await db
        .select({ key: supportMessages.attachmentKey })
        .from(supportMessages)
        .innerJoin(supportRequests, eq(supportRequests.id, supportMessages.requestId))
        .where(and(eq(supportRequests.userId, userId), isNotNull(supportMessages.attachmentKey)));
      return rows.map((r) => r.key!);
    },
    /** The member's requests with the messages they can see (internal notes left out). */
    async personalData({ id }: DataSubject) {
      const requests = await db
        .select()
        .from(supportRequests)
        .where(eq(supportRequests.userId, id))
        .orderBy(asc(supportRequests.createdAt));
      const messages = requests.length
        ? await db
            .select()
            .from(supportMessages)
            .where(
              and(
                inArray(
                  supportMessages.requestId,
                  requests.map((r) => r.id),
                ),
                eq(supportMessages.internal, false),
              ),
            )
            .orderBy(asc(supportMessages.createdAt))
        : [];
      return {
        supportRequests: requests.map(({ assigneeId: _assignee, ...request }) => ({
          ...request,
          messages: messages
            .filter((m) => m.requestId === request.id)
            .map(({ attachmentKey: _key, internal: _internal, authorId: _author, ...message }) => message),
        })),
      };
    },
    /** Deletes the member's requests (their messages go with them); answers the attachments' keys. */
    async eraseRequests(userId: string): Promise<string[]> {
      // Locked first, as every reply locks its request: a reply committing meanwhile is either in
      // the keys read next or waits and then finds its request gone.
      await db.select({ id: supportRequests.id }).from(supportRequests).where(eq(supportRequests.userId, userId)).for('update');
      const keys = await this.attachmentKeysOf(userId);
      await db.delete(supportRequests).where(eq(supportRequests.userId, userId));
      return keys;
    },
  };
}

export function createSupportStore(db: DbOrTx) {
  const deps: StoreDeps = { db };
  return { ...requestRows(deps), ...listRows(deps), ...subjectRows(deps) };
}

export type SupportStore = ReturnType<typeof createSupportStore>;
