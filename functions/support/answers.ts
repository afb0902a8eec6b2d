/**
 * The support desk's answers as the API sends them: a request's summary (staff's answers also name
 * the member and the assignee), its messages, and the opaque page cursor of a list.
 */
import { z } from 'zod';
import { isPriority } from '#shared/support/targets.ts';
import { AppError } from '../platform/errors.ts';
import { nameForType, type StoredAttachment } from './attachments.ts';
import type { RequestCursor } from './store.ts';
import type { SupportMessageRow, SupportRequestRow } from './tables.ts';

/** A person as a support answer names them: null once their account is gone. */
export type Person = { id: string; name: string; email: string } | null;

/** The page cursor: the last row's place in its order, opaque to the client. */
export const encodeCursor = (row: SupportRequestRow) =>
  Buffer.from(`${isPriority(row.level) ? 1 : 0}|${row.createdAt.toISOString()}|${row.id}`).toString('base64url');

export function decodeCursor(cursor: string | undefined): RequestCursor | undefined {
  if (!cursor) return undefined;
  const [priority, at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (
    !/^[01]$/.test(priority ?? '') ||
    Number.isNaN(createdAt.getTime()) ||
    !z.uuid().safeParse(id).success ||
    createdAt.getUTCFullYear() < 1970 ||
    createdAt.getUTCFullYear() > 9999
  )
    throw new AppError('validation_failed', 'The query is not valid.', { fields: { cursor: ['Not a page cursor'] } });
  return { priority: priority === '1', createdAt, id: id! };
}

/**
 * Names by profile id, as `people()` in the service reads them: the profile's name, or the address
 * when it has none (`named` false). A staff author is never shown to a member by address (`staffName`).
 */
export type Names = Map<string, NonNullable<Person> & { role: string; named: boolean }>;

/** Who a member is told wrote for the desk when the staff member has no profile name. */
export const SUPPORT_NAME = 'Beacon Growth support';

/** A staff author as members see them: the profile name, or the desk's name; never the address, whatever their role is now. */
export const staffName = (person: { name: string; named: boolean } | undefined) => (person?.named ? person.name : SUPPORT_NAME);

/** A request as a list or a conversation answers it; `names` (staff's answers) adds who opened it and who has it. */
export function requestAnswer(request: SupportRequestRow, messageCount: number, names?: Names) {
  const person = (id: string | null): Person => {
    const p = id ? names?.get(id) : undefined;
    return p ? { id: p.id, name: p.name, email: p.email } : null;
  };
  return {
    id: request.id,
    subject: request.subject,
    status: request.status,
    level: request.level,
    priority: isPriority(request.level),
    createdAt: request.createdAt,
    updatedAt: request.updatedAt,
    respondBy: request.respondBy,
    firstResponseAt: request.firstResponseAt,
    closedAt: request.closedAt,
    messageCount,
    /** Staff's answers only: who opened it and who has it. */
    member: names ? person(request.userId) : null,
    assignee: names ? person(request.assigneeId) : null,
  };
}

/** A message as a conversation answers it: the author's name only (null once the account is gone). */
export function messageAnswer(row: SupportMessageRow, names: Map<string, { name: string; named: boolean }>) {
  const author = row.authorId ? names.get(row.authorId) : undefined;
  return {
    id: row.id,
    fromStaff: row.fromStaff,
    internal: row.internal,
    author: author ? { name: row.fromStaff ? staffName(author) : author.name } : null,
    body: row.body,
    createdAt: row.createdAt,
    attachment: row.attachmentKey
      ? {
          name: nameForType(row.attachmentName ?? 'attachment', row.attachmentType ?? 'application/octet-stream'),
          type: row.attachmentType ?? 'application/octet-stream',
          size: row.attachmentSize ?? 0,
        }
      : null,
  };
}

/** The message columns of a stored attachment. */
export const attachmentColumns = (a: StoredAttachment | undefined) =>
  a ? { attachmentKey: a.key, attachmentName: a.name, attachmentType: a.type, attachmentSize: a.size } : {};
