/**
 * The support desk's writes: a request opened (staff hear of it by mail), a reply or an internal
 * note (staff's reply mailed to the member in its transaction), staff's status and assignee. Each
 * checks ownership first (functions/support/steps.ts), as every read does.
 */
import { effectiveLevel, isStaff, accessLabel } from '#shared/access.ts';
import { respondByFor } from '#shared/support/business-days.ts';
import { isPriority } from '#shared/support/targets.ts';
import { AppError } from '../platform/errors.ts';
import type { Viewer } from '../users/index.ts';
import type { StoredAttachment } from './attachments.ts';
import type { OpenRequest, Reply, UpdateRequest } from './schema.ts';
import { attachmentColumns } from './answers.ts';
import { LIMITS, statusPatch } from './rules.ts';
import { createSupportStore, type RequestPatch } from './store.ts';

import { asStaff, conversation, keeping, mailReply, roomFor, visible, type SupportParts } from './steps.ts';

/** A request opened, with its first message; staff hear of it by mail. */
export function openings(deps: SupportParts) {
  const { db, outbox, limiter, siteUrl, inbox, clock, directory } = deps;
  return {
    /** POST /api/support/requests: opens a request with its first message; staff hear of it by mail. */
    async open(viewer: Viewer, input: OpenRequest, attachment?: StoredAttachment): Promise<{ id: string }> {
      return keeping(deps, attachment, async () => {
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
  };
}

/** Replies and internal notes, and staff's status and assignee. */
export function replies(deps: SupportParts) {
  const { db, limiter, clock, directory } = deps;
  return {
    /**
     * POST /api/support/requests/{id}/messages: a reply. The member's makes it staff's turn (open);
     * staff's sets the status they chose (waiting on the member by default), counts as the first
     * response, takes an unassigned request, and is mailed to the member. An internal note (staff)
     * changes nothing the member sees and mails no one.
     */
    async reply(viewer: Viewer, id: string, input: Reply, attachment?: StoredAttachment): Promise<{ id: string }> {
      return keeping(deps, attachment, async () => {
        const known = await visible(deps, viewer, id);
        const staffView = asStaff(viewer, known);
        if (!staffView && (input.internal !== undefined || input.status !== undefined))
          throw new AppError('forbidden', 'Only staff can add internal notes or set the status.');
        if (!staffView) await limiter.enforce([[LIMITS.message, viewer.id]]);
        const internal = staffView && input.internal === true;
        const now = clock();
        return db.transaction(async (tx) => {
          const store = createSupportStore(tx);
          const request = await visible(deps, viewer, id, tx, true);
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
          if (staffView && !internal) await mailReply(deps, tx, request, viewer, input.body);
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
        const request = await visible(deps, viewer, id, tx, true);
        const patch: RequestPatch = {};
        if (input.status !== undefined && input.status !== request.status)
          Object.assign(patch, statusPatch(input.status, now), { updatedAt: now });
        if (input.assigneeId !== undefined) patch.assigneeId = input.assigneeId;
        if (Object.keys(patch).length) await createSupportStore(tx).update(id, patch);
      });
      return conversation(deps, viewer, id);
    },
  };
}
