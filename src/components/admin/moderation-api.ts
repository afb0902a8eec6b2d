/**
 * The Moderation tab's calls to the staff moderation API (/api/admin/community, functions/community/
 * moderation/routes.ts): the queue, actions on posts, threads and members, the log, and (admins)
 * the categories. Every call answers the API module's one result shape.
 */
import type { PostAction, ThreadAction } from '#shared/community/moderation.ts';
import { api, call, type ApiData, type ApiInput, type ApiResult } from '../../lib/browser/api.ts';

const admin = api.communityAdmin;

export type QueueItem = ApiData<typeof admin.queue.$get>['items'][number];
export type LogEntry = ApiData<typeof admin.log.$get>['items'][number];
export type Category = ApiData<typeof admin.categories.$get>['items'][number];
export type Person = NonNullable<QueueItem['author']>;

/** What the category form sends: everything but the slug on a change (the route's schema's input, every field given). */
export type CategoryFields = Required<ApiInput<(typeof admin.categories)[':slug']['$put']>>;

export const loadQueue = (signal?: AbortSignal) => call((o) => admin.queue.$get({}, o), { signal });

/** `seen`: the post's `editedAt` as shown (an approval of text edited since is refused with 409). */
export const actOnPost = (id: string, action: PostAction, seen: string | null) =>
  call((o) => admin.posts[':id'].$post({ param: { id }, json: { action, seen } }, o));

export const actOnThread = (id: string, action: ThreadAction, category?: string) =>
  call((o) => admin.threads[':id'].$post({ param: { id }, json: { action, ...(category ? { category } : {}) } }, o));

/** Suspends a member (until an instant, or until lifted when `until` is null), or lifts it (`suspended: false`). */
export const setSuspension = (userId: string, body: { suspended: boolean; until?: string; reason?: string }) =>
  call((o) => admin.members[':userId'].suspension.$post({ param: { userId }, json: body }, o));

export const loadLog = (cursor: string | null, signal?: AbortSignal) =>
  call((o) => admin.log.$get({ query: cursor ? { cursor } : {} }, o), { signal });

export const loadCategories = (signal?: AbortSignal) => call((o) => admin.categories.$get({}, o), { signal });

export const createCategory = (body: CategoryFields & { slug: string }) => call((o) => admin.categories.$post({ json: body }, o));

export const updateCategory = (slug: string, body: CategoryFields) =>
  call((o) => admin.categories[':slug'].$put({ param: { slug: encodeURIComponent(slug) }, json: body }, o));

export const deleteCategory = (slug: string) =>
  call((o) => admin.categories[':slug'].$delete({ param: { slug: encodeURIComponent(slug) } }, o));

/** A failed call's words for a person (the server's message where it gave one). */
export function failureText(result: Exclude<ApiResult<unknown>, { ok: true }>, fallback: string): string {
  if (result.kind === 'signed-out') return 'Your session has ended. Please sign in again.';
  if (result.kind === 'forbidden') return 'Only editors and admins can moderate the community; categories are for admins.';
  return result.message || fallback;
}

/** A member's name as staff see it: the name, else the address; a deleted account says so. */
export function personLabel(person: Person | null | undefined): string {
  if (!person) return 'Deleted member';
  return person.name.trim() || person.email;
}
