/**
 * The browser's calls to the gated API (article bodies, lessons, downloads, course progress, the
 * member feed). Each call sends the signed-in member's bearer token and answers a typed result: the
 * data, or why not (signed out, not entitled, unknown item, or a failure worth a retry). The server
 * is the authority: a 401 or 403 here is a gate, whatever the browser thought of the profile.
 *
 * The token comes from the session the auth client (supabase-js) keeps in localStorage, read without
 * loading that client: it is half of a detail page's JavaScript budget, and detail pages only need the
 * token. Only a token that has already expired (a tab left asleep) loads the client, to refresh it.
 * Browser only: imported by islands.
 */
import type { AccessLevel, Role } from '#shared/access.ts';
export type GatedResult<T> =
  | { ok: true; data: T }
  /** No session, or the server did not accept it (401). */
  | { ok: false; kind: 'signed-out' }
  /** Signed in but the level is too low (403). */
  | { ok: false; kind: 'forbidden'; requiredLevel?: AccessLevel }
  /** Unknown item, lesson or file (404). */
  | { ok: false; kind: 'not-found'; message: string }
  /**
   * Network failure, 5xx or anything unexpected: worth a retry. `status` is the HTTP status when
   * the server answered (callers tell a 409 conflict or a 422 apart by it); `code` its error code.
   */
  | { ok: false; kind: 'error'; message: string; status?: number; code?: string; fields?: Record<string, string[]> };

export type GatedFailure = Exclude<GatedResult<unknown>, { ok: true }>;

export interface SignedLink {
  url: string;
  expiresAt: string;
}

export interface LessonMedia {
  url: string;
  type: 'image' | 'video' | 'pdf';
  alt?: string;
}

export interface LessonContent {
  id: string;
  title: string;
  /** Sanitised HTML. */
  content: string;
  media: LessonMedia[];
  downloadables: { name: string; url: string }[];
}

export interface CourseProgress {
  courseSlug: string;
  completed: string[];
  lastLessonId: string | null;
  total: number;
}

export interface MyCourseProgress extends CourseProgress {
  title: string;
  updatedAt: string;
}

const GENERIC = 'Something went wrong. Please try again.';

/** The signed-in session as stored by the auth client. */
export interface StoredSession {
  accessToken: string;
  /** Seconds since the epoch, when known. */
  expiresAt: number | undefined;
  userId: string;
}

const SESSION_KEY = /^sb-.+-auth-token$/;
const SESSION_EVENT = 'beacon:session';
let lastRaw: string | null | undefined;
let lastSession: StoredSession | null = null;

function parseSession(raw: string | null): StoredSession | null {
  try {
    const value = raw ? (JSON.parse(raw) as { access_token?: unknown; expires_at?: unknown; user?: { id?: unknown } } | null) : null;
    if (typeof value?.access_token !== 'string' || typeof value.user?.id !== 'string') return null;
    return {
      accessToken: value.access_token,
      expiresAt: typeof value.expires_at === 'number' ? value.expires_at : undefined,
      userId: value.user.id,
    };
  } catch {
    return null;
  }
}

/** The stored session, or null when signed out. The same object while it is unchanged (a store snapshot). */
export function storedSession(): StoredSession | null {
  let raw: string | null = null;
  try {
    const key = Object.keys(localStorage).find((k) => SESSION_KEY.test(k));
    raw = key ? localStorage.getItem(key) : null;
  } catch {
    raw = null; // storage disabled: nobody is signed in here
  }
  if (raw !== lastRaw) {
    lastRaw = raw;
    lastSession = parseSession(raw);
  }
  return lastSession;
}

/** Calls `listener` when the stored session may have changed (another tab, or a refresh here). */
export function onSessionChange(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || SESSION_KEY.test(event.key)) listener();
  };
  window.addEventListener('storage', onStorage);
  window.addEventListener(SESSION_EVENT, listener);
  return () => {
    window.removeEventListener('storage', onStorage);
    window.removeEventListener(SESSION_EVENT, listener);
  };
}

/** The current access token; an expired one is refreshed first by the auth client, loaded only then. */
export async function bearer(): Promise<string | undefined> {
  const session = storedSession();
  if (!session) return undefined;
  if (!session.expiresAt || session.expiresAt * 1000 > Date.now() + 5_000) return session.accessToken;
  const { authClient } = await import('./auth/client.ts');
  const { data } = await authClient().auth.getSession();
  window.dispatchEvent(new Event(SESSION_EVENT));
  return data.session?.access_token;
}

export async function failure(res: Response): Promise<GatedFailure> {
  const body = (await res.json().catch(() => undefined)) as
    { error?: { code?: string; message?: string; requiredLevel?: AccessLevel; fields?: Record<string, string[]> } } | undefined;
  const message = body?.error?.message ?? GENERIC;
  if (res.status === 401) return { ok: false, kind: 'signed-out' };
  if (res.status === 403)
    return { ok: false, kind: 'forbidden', ...(body?.error?.requiredLevel ? { requiredLevel: body.error.requiredLevel } : {}) };
  if (res.status === 404) return { ok: false, kind: 'not-found', message };
  return {
    ok: false,
    kind: 'error',
    message: res.status >= 500 ? GENERIC : message,
    status: res.status,
    ...(body?.error?.code ? { code: body.error.code } : {}),
    ...(body?.error?.fields ? { fields: body.error.fields } : {}),
  };
}

/** One gated call: JSON in and out, with the member's token; never throws. */
export async function gatedFetch<T>(
  path: string,
  init: { method?: string; body?: unknown; signal?: AbortSignal } = {},
): Promise<GatedResult<T>> {
  try {
    const token = await bearer();
    if (!token) return { ok: false, kind: 'signed-out' };
    const res = await fetch(path, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
    });
    if (!res.ok) return await failure(res);
    if (res.status === 204) return { ok: true, data: null as T };
    return { ok: true, data: (await res.json()) as T };
  } catch (err) {
    if (init.signal?.aborted) throw err;
    return { ok: false, kind: 'error', message: GENERIC };
  }
}

const seg = encodeURIComponent;

/** Who the server takes the caller to be: the level and role the gates use (null when it does not know them). */
export function fetchViewer(signal?: AbortSignal) {
  return gatedFetch<{ viewer: { id: string; accessLevel: AccessLevel; role: Role } | null }>('/api/users/me', { signal });
}

/** The whole article (preview included) as sanitised HTML. */
export function fetchArticleBody(slug: string, signal?: AbortSignal) {
  return gatedFetch<{ html: string }>(`/api/content/blogs/${seg(slug)}/body`, { signal });
}

/** One lesson: content HTML, media and files (signed links that expire). */
export function fetchLesson(courseSlug: string, lessonId: string, signal?: AbortSignal) {
  return gatedFetch<LessonContent>(`/api/content/courses/${seg(courseSlug)}/lessons/${seg(lessonId)}`, { signal });
}

/** A fresh signed link to a lesson's file number `index` (0-based). */
export function lessonDownloadLink(courseSlug: string, lessonId: string, index: number) {
  return gatedFetch<SignedLink>(`/api/content/courses/${seg(courseSlug)}/lessons/${seg(lessonId)}/downloads/${index}`);
}

/** A signed link to a tool's or market item's file. */
export function itemDownloadLink(segment: 'tools' | 'market', slug: string) {
  return gatedFetch<SignedLink>(`/api/content/${segment}/${seg(slug)}/download`);
}

/** The member's progress in one course. */
export function fetchCourseProgress(courseSlug: string, signal?: AbortSignal) {
  return gatedFetch<CourseProgress>(`/api/content/courses/${seg(courseSlug)}/progress`, { signal });
}

/** Records `lessonId` as the last lesson viewed and, when `completed` is given, marks or unmarks it. */
export function recordCourseProgress(courseSlug: string, body: { lessonId: string; completed?: boolean }) {
  return gatedFetch<CourseProgress>(`/api/content/courses/${seg(courseSlug)}/progress`, { method: 'PUT', body });
}

/** Progress in every course the member started (the account page). */
export function fetchMyProgress(signal?: AbortSignal) {
  return gatedFetch<{ courses: MyCourseProgress[] }>('/api/users/me/progress', { signal });
}

/** The member's private RSS URL (made on the first call). */
export function fetchMemberFeed(signal?: AbortSignal) {
  return gatedFetch<{ url: string }>('/api/users/me/feed', { signal });
}

/** A new private RSS URL; the old one stops working. */
export function resetMemberFeed() {
  return gatedFetch<{ url: string }>('/api/users/me/feed/reset', { method: 'POST' });
}

/** Sends the browser to a signed download link asked for just now. */
export async function startDownload(link: Promise<GatedResult<SignedLink>>): Promise<GatedResult<SignedLink>> {
  const result = await link;
  if (result.ok) window.location.assign(result.data.url);
  return result;
}
