/**
 * The support desk's limits and small rules, beside the service that applies them: per-account write
 * limits, the longest conversation, the one not-found answer and what a status change sets.
 */
import type { RequestStatus } from '#shared/support/targets.ts';
import { AppError } from '../platform/errors.ts';
import type { RequestPatch } from './store.ts';

/** Per-account limits on members' writes (staff answering the queue are not limited). */
export const LIMITS = {
  open: { name: 'support:open', max: 10, windowSeconds: 3600 },
  message: { name: 'support:message', max: 60, windowSeconds: 3600 },
};

/**
 * The most messages a member may add to one request (a reply past it is refused: open a new one).
 * A conversation is answered whole, so this bounds its size: 200 messages of at most 10,000
 * characters, about 2 MB (a member writing 60 messages an hour to one request for days made one
 * answer of tens of MB, and each read held the server's thread for hundreds of milliseconds).
 */
export const MAX_MEMBER_MESSAGES = 200;
export const LONG_CONVERSATION = `This conversation has reached ${MAX_MEMBER_MESSAGES} messages. Please open a new request.`;

export const NOT_FOUND = 'No such support request.';
export const notFound = () => new AppError('not_found', NOT_FOUND);

/** The columns a status change sets: when it closed, or no closing time while it is open or waiting. */
export function statusPatch(status: RequestStatus, now: Date): RequestPatch {
  return { status, closedAt: status === 'closed' ? now : null };
}
