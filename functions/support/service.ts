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
import { effectiveLevel, isStaff, accessLabel } from '#shared/access.ts';
import { respondByFor } from '#shared/support/business-days.ts';
import { isPriority } from '#shared/support/targets.ts';
import type { EmailService } from '../email/index.ts';
import { formatWait, type RateLimitService } from '../platform/abuse/service.ts';
import type { Db, DbOrTx } from '../platform/db/client.ts';
import { AppError } from '../platform/errors.ts';
import { memberDirectory } from '../users/index.ts';
import type { PersonalDataSource } from '../users/index.ts';
import type { Viewer } from '../users/index.ts';
import { nameForType, type Attachments, type StoredAttachment } from './attachments.ts';
import type { ListQuery, OpenRequest, Reply, UpdateRequest } from './schema.ts';
import { attachmentColumns, decodeCursor, encodeCursor, messageAnswer, requestAnswer, staffName } from './answers.ts';
import { LIMITS, LONG_CONVERSATION, MAX_MEMBER_MESSAGES, notFound, statusPatch } from './rules.ts';
import { createSupportStore, type RequestPatch } from './store.ts';
import type { SupportRequestRow } from './tables.ts';

export interface SupportServiceDeps {
  db: Db;
  outbox: EmailService;
  limiter: RateLimitService;
  attachments: Attachments;
  siteUrl: string;
  /** Where staff hear of a new request (the contact form's inbox); none: no notice. */
  inbox?: string | undefined;
  /** Now (tests move it to a weekday or a weekend). */
  clock?: () => Date;
}

export function createSupportService({ db, outbox, limiter, attachments, siteUrl, inbox, clock = () => new Date() }: SupportServiceDeps) {
  const directory = memberDirectory(db);
  /** Names and addresses by id; `on` the caller's transaction when inside one (PGlite has one connection). */
  const people = async (ids: (string | null)[], on: DbOrTx = db) => {
    const rows = await memberDirectory(on).byIds([...new Set(ids.filter((id): id is string => id !== null))]);
    return new Map(
      rows.map((p) => [p.id, { id: p.id, name: p.name?.trim() || p.email, named: Boolean(p.name?.trim()), email: p.email, role: p.role }]),
    );
  };
  /** Whether the caller works this request as staff (a staff member's own request is theirs as a member). */
  const asStaff = (viewer: Viewer, request: SupportRequestRow) => isStaff(viewer.role) && request.userId !== viewer.id;

  /** A request the caller may see, or the one 404 for others' and unknown ids alike. */
  async function visible(viewer: Viewer, id: string, tx: DbOrTx = db, lock = false): Promise<SupportRequestRow> {
    const store = createSupportStore(tx);
    const request = lock ? await store.lock(id) : await store.byId(id);
    if (!request || (request.userId !== viewer.id && !isStaff(viewer.role))) throw notFound();
    return request;
  }

  /** Refuses a member past a limit without counting a use (the write itself counts it). */
  async function withinLimit(viewer: Viewer, limit: (typeof LIMITS)[keyof typeof LIMITS]): Promise<void> {
    if (isStaff(viewer.role)) return;
    const { allowed, retryAfterSeconds } = await limiter.peek(limit, viewer.id);
    if (!allowed)
      throw new AppError('rate_limited', `Too many requests. Please try again in ${formatWait(retryAfterSeconds)}.`, {
        headers: { 'Retry-After': String(retryAfterSeconds) },
      });
  }

  /** Refuses a member's message to a request that holds `MAX_MEMBER_MESSAGES` already (staff's count: they answer it). */
  async function roomFor(store: ReturnType<typeof createSupportStore>, id: string): Promise<void> {
    const count = (await store.counts([id], { internal: true })).get(id) ?? 0;
    if (count >= MAX_MEMBER_MESSAGES) throw new AppError('conflict', LONG_CONVERSATION);
  }

  /** Runs a write whose attachment is already stored: a failure removes the attachment again. */
  async function keeping<T>(attachment: StoredAttachment | undefined, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (attachment) await attachments.remove([attachment.key]).catch(() => undefined);
      throw err;
    }
  }

  /** A request and its messages as the caller may see them (internal notes for staff only). */
  async function conversation(viewer: Viewer, id: string) {
    const request = await visible(viewer, id);
    const staffView = asStaff(viewer, request);
    const rows = await createSupportStore(db).messages(id, { internal: staffView });
    const names = await people([request.userId, request.assigneeId, ...rows.map((m) => m.authorId)]);
    return {
      request: requestAnswer(request, rows.length, staffView ? names : undefined),
      messages: rows.map((m) => messageAnswer(m, names)),
    };
  }

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
      const names = staffView ? await people(page.flatMap((r) => [r.userId, r.assigneeId])) : undefined;
      return {
        requests: page.map((r) => requestAnswer(r, counts.get(r.id) ?? 0, names)),
        nextCursor: rows.length > query.limit ? encodeCursor(page.at(-1)!) : null,
      };
    },

    /** Whether the caller may open a request now (asked before its body, and its file, are read). */
    mayOpen: (viewer: Viewer) => withinLimit(viewer, LIMITS.open),

    /** Whether the caller may reply to this request now: theirs (or staff's), and within the limit. */
    async mayReply(viewer: Viewer, id: string): Promise<void> {
      const request = await visible(viewer, id);
      if (asStaff(viewer, request)) return;
      await withinLimit(viewer, LIMITS.message);
      await roomFor(createSupportStore(db), id);
    },

    /** POST /api/support/requests: opens a request with its first message; staff hear of it by mail. */
    async open(viewer: Viewer, input: OpenRequest, attachment?: StoredAttachment): Promise<{ id: string }> {
      return keeping(attachment, async () => {
        if (!isStaff(viewer.role)) await limiter.enforce([[LIMITS.open, viewer.id]]);
        const now = clock();
        const level = effectiveLevel(viewer);
        const respondBy = respondByFor(now, level);
        const [profile] = await directory.byIds([viewer.id]);
        return db.transaction(async (tx) => {
          const store = createSupportStore(tx);
          const request = await store.insertRequest({ userId: viewer.id, subject: input.subject, level, respondBy, createdAt: now });
          await store.insertMessage({
            requestId: request.id,
            authorId: viewer.id,
            fromStaff: false,
            internal: false,
            body: input.message,
            createdAt: now,
            ...attachmentColumns(attachment),
          });
          if (inbox) {
            const name = profile?.name?.trim();
            await outbox.enqueue(tx, {
              to: inbox,
              template: 'support-request-opened',
              data: {
                subject: input.subject,
                message: input.message,
                member: name ? `${name} <${viewer.email}>` : viewer.email,
                level: accessLabel(level),
                priority: isPriority(level),
                respondBy: respondBy.toISOString(),
                url: `${siteUrl}/admin`,
              },
            });
          }
          return { id: request.id };
        });
      });
    },

    /** GET /api/support/requests/{id}: the request and its messages (internal notes for staff only). */
    get: conversation,

    /**
     * POST /api/support/requests/{id}/messages: a reply. The member's makes it staff's turn (open);
     * staff's sets the status they chose (waiting on the member by default), counts as the first
     * response, takes an unassigned request, and is mailed to the member. An internal note (staff)
     * changes nothing the member sees and mails no one.
     */
    async reply(viewer: Viewer, id: string, input: Reply, attachment?: StoredAttachment): Promise<{ id: string }> {
      return keeping(attachment, async () => {
        const known = await visible(viewer, id);
        const staffView = asStaff(viewer, known);
        if (!staffView && (input.internal !== undefined || input.status !== undefined))
          throw new AppError('forbidden', 'Only staff can add internal notes or set the status.');
        if (!staffView) await limiter.enforce([[LIMITS.message, viewer.id]]);
        const internal = staffView && input.internal === true;
        const now = clock();
        return db.transaction(async (tx) => {
          const store = createSupportStore(tx);
          const request = await visible(viewer, id, tx, true);
          if (!staffView) await roomFor(store, id);
          const row = await store.insertMessage({
            requestId: id,
            authorId: viewer.id,
            fromStaff: staffView,
            internal,
            body: input.body,
            createdAt: now,
            ...attachmentColumns(attachment),
          });
          const patch: RequestPatch = {};
          if (!staffView) Object.assign(patch, statusPatch('open', now), { updatedAt: now });
          else if (!internal) {
            Object.assign(patch, statusPatch(input.status ?? 'waiting', now), { updatedAt: now });
            if (!request.firstResponseAt) patch.firstResponseAt = now;
            if (!request.assigneeId) patch.assigneeId = viewer.id;
          } else if (input.status) Object.assign(patch, statusPatch(input.status, now), { updatedAt: now });
          if (Object.keys(patch).length) await store.update(id, patch);
          if (staffView && !internal) await mailReply(tx, request, viewer, input.body);
          return { id: row.id };
        });
      });
    },

    /** PATCH /api/support/requests/{id} (staff): the status and/or the assignee (a staff member, or nobody). */
    async update(viewer: Viewer, id: string, input: UpdateRequest) {
      const now = clock();
      if (input.assigneeId) {
        const [assignee] = await directory.byIds([input.assigneeId]);
        if (!assignee || !isStaff(assignee.role))
          throw new AppError('validation_failed', 'Assign requests to an editor or an admin.', {
            fields: { assigneeId: ['Not a staff member'] },
          });
      }
      await db.transaction(async (tx) => {
        const request = await visible(viewer, id, tx, true);
        const patch: RequestPatch = {};
        if (input.status !== undefined && input.status !== request.status)
          Object.assign(patch, statusPatch(input.status, now), { updatedAt: now });
        if (input.assigneeId !== undefined) patch.assigneeId = input.assigneeId;
        if (Object.keys(patch).length) await createSupportStore(tx).update(id, patch);
      });
      return conversation(viewer, id);
    },

    /** An attachment of a message the caller may see: the member's own request (not an internal note's), or any for staff. */
    async attachment(viewer: Viewer, requestId: string, messageId: string) {
      const request = await visible(viewer, requestId);
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

  /** The member hears of staff's reply, with a link back to the conversation (never an internal note). */
  async function mailReply(tx: DbOrTx, request: SupportRequestRow, viewer: Viewer, body: string) {
    const names = await people([request.userId, viewer.id], tx);
    const member = names.get(request.userId);
    if (!member) return;
    await outbox.enqueue(tx, {
      to: member.email,
      userId: member.id,
      template: 'support-reply',
      data: {
        subject: request.subject,
        reply: body,
        staff: staffName(names.get(viewer.id)),
        url: `${siteUrl}/account/support?request=${request.id}`,
      },
    });
  }
}

export { MAX_MEMBER_MESSAGES };

export type SupportService = ReturnType<typeof createSupportService>;
