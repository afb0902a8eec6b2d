/**
 * The community islands' calls, through the typed clients of src/lib/browser/api.ts (answer types
 * come from functions/community/routes.ts, moderation's and the reply mails' routes). Visitors read
 * the categories anyone reads without a token; everything else goes with the member's. Writes answer
 * `Sent` (the one ApiResult, narrowed): the data, or an error with the server's own words for why not
 * (a suspension, a locked thread, a limit, a field), which the forms show as they are. Browser only.
 */
import type { ClientResponse } from 'hono/client';
import type { PostAction, ThreadAction } from '#shared/community/moderation.ts';
import { api, call, publicApi, type ApiData, type ApiInput, type ApiResult } from '../../lib/browser/api.ts';

const seg = encodeURIComponent;
const at = (id: string) => ({ param: { id: seg(id) } });
/** The parameters that have a value (a first page has no cursor). */
const present = <K extends string>(values: Record<K, string | null | undefined>) =>
  Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => Boolean(e[1]))) as Partial<Record<K, string>>;

export type Category = ApiData<typeof publicApi.community.categories.$get>['items'][number];
export type ThreadListPage = ApiData<typeof api.community.threads.$get>;
export type ThreadSummary = ThreadListPage['items'][number];
export type ThreadPage = ApiData<(typeof api.community.threads)[':id']['$get']>;
export type Thread = ThreadPage['thread'];
export type Post = ThreadPage['posts'][number];
export type CommentsPage = ApiData<(typeof api.community.comments.blogs)[':slug']['$get']>;
export type SearchHit = ApiData<typeof api.community.search.$get>['items'][number];

/** An article's or a lesson's comments, as the routes name them. */
export type CommentsWhere = { type: 'blog'; slug: string } | { type: 'course'; slug: string; lessonId: string };

/** A write's outcome: the data, or an error with the server's message (and field errors) to show. */
export type Sent<T> = Extract<ApiResult<T>, { ok: true } | { kind: 'error' }>;
/** What a form is told of a send: done, or why not. */
export type SendResult = Sent<unknown>;

/** The data a typed answer carries (unknown for a plain Response). */
type DataOf<R> = R extends ClientResponse<infer T, infer _Status, infer _Format> ? T : unknown;

const SIGNED_OUT = 'Your session has ended. Please sign in again.';

/**
 * A typed call whose refusal keeps the server's message: `call` words 401, 403 and 404 for the
 * gated reads (a gate, not a message), while a write's 403 says why (a suspension, another's post).
 */
async function sent<
  R extends { ok: boolean; status: number; json(): Promise<unknown>; clone(): { json(): Promise<unknown> } },
  T = DataOf<R>,
>(send: (options: { headers: Record<string, string>; init: RequestInit }) => Promise<R>): Promise<Sent<T>> {
  let said: string | undefined;
  const result = (await call(async (o) => {
    const res = await send(o);
    if (!res.ok && res.status < 500)
      said = (
        (await res
          .clone()
          .json()
          .catch(() => undefined)) as { error?: { message?: string } } | undefined
      )?.error?.message;
    return res;
  })) as ApiResult<T>;
  if (result.ok || result.kind === 'error') return result;
  if (result.kind === 'signed-out') return { ok: false, kind: 'error', message: SIGNED_OUT };
  return { ok: false, kind: 'error', message: said ?? (result.kind === 'not-found' ? result.message : 'You cannot do that here.') };
}

/** Every category in display order (the same answer for everyone). */
export function fetchCategories(signal?: AbortSignal) {
  return call((o) => publicApi.community.categories.$get({}, o), { signal });
}

/** A page of a category's threads: with the member's token when signed in (their held threads, staff's marks). */
export function fetchThreads(category: string, cursor: string | null, signedIn: boolean, signal?: AbortSignal) {
  const client = signedIn ? api.community : publicApi.community;
  return call((o) => client.threads.$get({ query: { category, ...present({ cursor }) } }, o), { signal });
}

/** A thread and a page of its posts. */
export function fetchThread(id: string, cursor: string | null, signedIn: boolean, signal?: AbortSignal) {
  const client = signedIn ? api.community : publicApi.community;
  return call((o) => client.threads[':id'].$get({ ...at(id), query: present({ cursor }) }, o), { signal });
}

export function startThread(json: ApiInput<typeof api.community.threads.$post>) {
  return sent((o) => api.community.threads.$post({ json }, o));
}

export function reply(threadId: string, body: string) {
  return sent((o) => api.community.threads[':id'].replies.$post({ ...at(threadId), json: { body } }, o));
}

/** The Markdown of the member's own post, to edit. */
export function postSource(postId: string) {
  return call((o) => api.community.posts[':id'].source.$get(at(postId), o));
}

export function editPost(postId: string, body: string) {
  return sent((o) => api.community.posts[':id'].$patch({ ...at(postId), json: { body } }, o));
}

export function deletePost(postId: string) {
  return sent((o) => api.community.posts[':id'].$delete(at(postId), o));
}

export function setLike(postId: string, liked: boolean) {
  const like = api.community.posts[':id'].like;
  return sent((o) => (liked ? like.$put(at(postId), o) : like.$delete(at(postId), o)));
}

export function reportPost(postId: string, reason: string) {
  return sent((o) => api.communityReports.posts[':id'].report.$post({ ...at(postId), json: { reason } }, o));
}

/** Search results for `q` in what the caller may read. */
export function searchCommunity(q: string, cursor: string | null, signedIn: boolean, signal?: AbortSignal) {
  const client = signedIn ? api.community : publicApi.community;
  return call((o) => client.search.$get({ query: { q, ...present({ cursor }) } }, o), { signal });
}

/** A page of an article's or lesson's comments (gated like its body). */
export function fetchComments(where: CommentsWhere, cursor: string | null, signal?: AbortSignal): Promise<ApiResult<CommentsPage>> {
  const comments = api.community.comments;
  if (where.type === 'blog')
    return call((o) => comments.blogs[':slug'].$get({ param: { slug: seg(where.slug) }, query: present({ cursor }) }, o), { signal });
  const param = { slug: seg(where.slug), lessonId: seg(where.lessonId) };
  return call((o) => comments.courses[':slug'].lessons[':lessonId'].$get({ param, query: present({ cursor }) }, o), { signal });
}

export function addComment(where: CommentsWhere, body: string) {
  const comments = api.community.comments;
  if (where.type === 'blog') return sent((o) => comments.blogs[':slug'].$post({ param: { slug: seg(where.slug) }, json: { body } }, o));
  const param = { slug: seg(where.slug), lessonId: seg(where.lessonId) };
  return sent((o) => comments.courses[':slug'].lessons[':lessonId'].$post({ param, json: { body } }, o));
}

/** Staff: an action on a thread (`category` names where a move takes it). */
export function moderateThread(id: string, action: ThreadAction, category?: string) {
  return sent((o) => api.communityAdmin.threads[':id'].$post({ ...at(id), json: category ? { action, category } : { action } }, o));
}

/** Staff: an action on a post. */
/** `seen`: the post's `editedAt` as shown (an approval of text edited since is refused with 409). */
export function moderatePost(id: string, action: PostAction, seen: string | null) {
  return sent((o) => api.communityAdmin.posts[':id'].$post({ ...at(id), json: { action, seen } }, o));
}

/** Mail about replies in a thread the member follows, on or off. */
export function setMuted(threadId: string, muted: boolean) {
  return sent((o) => api.communityNotifications.threads[':id'].mute.$put({ ...at(threadId), json: { muted } }, o));
}
