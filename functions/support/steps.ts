/**
 * What the support desk's reads and writes share: the request the caller may see (the one 404 for
 * others' and unknown ids alike), staff's view of it, the names behind ids, the limits, the
 * conversation as the caller may see it, and the member's mail when staff reply.
 */
import { isStaff } from '#shared/access.ts';
import { formatWait } from '../platform/abuse/service.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import { AppError } from '../platform/errors.ts';
import { memberDirectory } from '../users/index.ts';
import type { Viewer } from '../users/index.ts';
import type { StoredAttachment } from './attachments.ts';
import { messageAnswer, requestAnswer, staffName } from './answers.ts';
import { LONG_CONVERSATION, MAX_MEMBER_MESSAGES, notFound, type LIMITS } from './rules.ts';
import type { EmailService } from '../email/index.ts';
import type { RateLimitService } from '../platform/abuse/service.ts';
import type { Db } from '../platform/db/client.ts';
import type { Attachments } from './attachments.ts';
import { createSupportStore } from './store.ts';
import type { SupportRequestRow } from './tables.ts';

/** Names and addresses by id, read `on` the caller's transaction when inside one (PGlite has one connection). */
export async function people(on: DbOrTx, ids: (string | null)[]) {
  const rows = await memberDirectory(on).byIds([...new Set(ids.filter((id): id is string => id !== null))]);
  return new Map(
    rows.map((p) => [p.id, { id: p.id, name: p.name?.trim() || p.email, named: Boolean(p.name?.trim()), email: p.email, role: p.role }]),
  );
}

/** Whether the caller works this request as staff (a staff member's own request is theirs as a member). */
export const asStaff = (viewer: Viewer, request: SupportRequestRow) => isStaff(viewer.role) && request.userId !== viewer.id;

/** What the desk's parts share: its dependencies, the clock and the member directory. */
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

export interface SupportParts extends SupportServiceDeps {
  clock: () => Date;
  directory: ReturnType<typeof memberDirectory>;
}

/** Refuses a member's message to a request that holds `MAX_MEMBER_MESSAGES` already (staff's count: they answer it). */
export async function roomFor(store: ReturnType<typeof createSupportStore>, id: string): Promise<void> {
  const count = (await store.counts([id], { internal: true })).get(id) ?? 0;
  if (count >= MAX_MEMBER_MESSAGES) throw new AppError('conflict', LONG_CONVERSATION);
}

/** A request the caller may see, or the one 404 for others' and unknown ids alike. */
export async function visible(
  { db }: SupportParts,
  viewer: Viewer,
  id: string,
  tx: DbOrTx | undefined = undefined,
  lock = false,
): Promise<SupportRequestRow> {
  const store = createSupportStore(tx ?? db);
  const request = lock ? await store.lock(id) : await store.byId(id);
  if (!request || (request.userId !== viewer.id && !isStaff(viewer.role))) throw notFound();
  return request;
}

/** Refuses a member past a limit without counting a use (the write itself counts it). */
export async function withinLimit({ limiter }: SupportParts, viewer: Viewer, limit: (typeof LIMITS)[keyof typeof LIMITS]): Promise<void> {
  if (isStaff(viewer.role)) return;
  const { allowed, retryAfterSeconds } = await limiter.peek(limit, viewer.id);
  if (!allowed)
    throw new AppError('rate_limited', `Too many requests. Please try again in ${formatWait(retryAfterSeconds)}.`, {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
}

/** Runs a write whose attachment is already stored: a failure removes the attachment again. */
export async function keeping<T>(
  { attachments }: SupportParts,
  attachment: StoredAttachment | undefined,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (attachment) await attachments.remove([attachment.key]).catch(() => undefined);
    throw err;
  }
}

/** A request and its messages as the caller may see them (internal notes for staff only). */
export async function conversation(deps: SupportParts, viewer: Viewer, id: string) {
  const { db } = deps;
  const request = await visible(deps, viewer, id);
  const staffView = asStaff(viewer, request);
  const rows = await createSupportStore(db).messages(id, { internal: staffView });
  const names = await people(db, [request.userId, request.assigneeId, ...rows.map((m) => m.authorId)]);
  return {
    request: requestAnswer(request, rows.length, staffView ? names : undefined),
    messages: rows.map((m) => messageAnswer(m, names)),
  };
}

/** The member hears of staff's reply, with a link back to the conversation (never an internal note). */
export async function mailReply({ outbox, siteUrl }: SupportParts, tx: DbOrTx, request: SupportRequestRow, viewer: Viewer, body: string) {
  const names = await people(tx, [request.userId, viewer.id]);
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
