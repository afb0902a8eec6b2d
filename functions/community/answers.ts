/**
 * What the community API answers, built from store rows: categories, thread summaries, a thread,
 * posts (a hidden or deleted post keeps its place with no HTML; a deleted member's has no author)
 * and the opaque page cursors. Authors are named by their profile's name only, never an address.
 */
import { isStaff, type AccessLevel } from '#shared/access.ts';
import { z } from 'zod';
import { AppError } from '../platform/errors.ts';
import type { ProfileRow } from '../users/index.ts';
import type { CategoryStats, PostCursor, PostListRow, ThreadCursor, ThreadListRow } from './store.ts';
import type { CategoryRow, PostStatus, ThreadRow, ThreadStatus } from './tables.ts';

/** Who wrote a post or thread; null once their account is deleted ("deleted member"). */
export type Author = { name: string; staff: boolean } | null;

export interface Category {
  slug: string;
  name: string;
  description: string;
  accessLevel: AccessLevel;
  anyoneReads: boolean;
  threadCount: number;
  lastPostAt: string | null;
}

export interface ThreadSummary {
  id: string;
  title: string;
  /** `visible` for everyone; the author sees their own `held` ones, staff every status. */
  status: ThreadStatus;
  pinned: boolean;
  locked: boolean;
  replyCount: number;
  createdAt: string;
  lastPostAt: string;
  author: Author;
  mine: boolean;
}

export interface Post {
  id: string;
  author: Author;
  isOpener: boolean;
  /** Sanitised HTML, rendered once on write; empty for a deleted post and (but for staff) a hidden one. */
  html: string;
  status: PostStatus;
  createdAt: string;
  editedAt: string | null;
  likeCount: number;
  liked: boolean;
  mine: boolean;
}

/** Where a thread lives: a category, or the comments of an article or a lesson. */
export type ThreadPlace =
  | { kind: 'category'; slug: string; name: string; accessLevel: AccessLevel; anyoneReads: boolean }
  | { kind: 'comments'; type: 'blog'; slug: string }
  | { kind: 'comments'; type: 'course'; slug: string; lessonId: string };

export interface Thread extends ThreadSummary {
  place: ThreadPlace;
  /** Whether the caller follows the thread and muted it; null when they do not follow it (or are signed out). */
  muted: boolean | null;
  /** Whether the caller may reply now (signed in at the level, the thread open, not suspended). */
  canReply: boolean;
}

export interface ThreadPage {
  thread: Thread;
  posts: Post[];
  nextCursor: string | null;
}

/** The names behind author ids, from the users domain (one query per page). */
export type Authors = Map<string, Pick<ProfileRow, 'name' | 'role'>>;

const iso = (d: Date) => d.toISOString();

export function authorOf(id: string | null, authors: Authors): Author {
  const profile = id ? authors.get(id) : undefined;
  return profile ? { name: profile.name?.trim() || 'Member', staff: isStaff(profile.role) } : null;
}

export function categoryAnswer(row: CategoryStats): Category {
  return {
    slug: row.slug,
    name: row.name,
    description: row.description,
    accessLevel: row.accessLevel,
    anyoneReads: row.anyoneReads,
    threadCount: row.threadCount,
    lastPostAt: row.lastPostAt ? iso(row.lastPostAt) : null,
  };
}

export function categoryPlace(row: CategoryRow): ThreadPlace {
  return { kind: 'category', slug: row.slug, name: row.name, accessLevel: row.accessLevel, anyoneReads: row.anyoneReads };
}

export function threadSummary(row: ThreadRow, authors: Authors, viewerId: string | undefined): ThreadSummary {
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    pinned: row.pinned,
    locked: row.locked,
    replyCount: row.replyCount,
    createdAt: iso(row.createdAt),
    lastPostAt: iso(row.lastPostAt),
    author: authorOf(row.authorId, authors),
    mine: viewerId !== undefined && row.authorId === viewerId,
  };
}

export function postAnswer(row: PostListRow, authors: Authors, viewerId: string | undefined, staff: boolean): Post {
  const shown = row.status === 'visible' || row.status === 'held' || (row.status === 'hidden' && staff);
  return {
    id: row.id,
    author: authorOf(row.authorId, authors),
    isOpener: row.isOpener,
    html: shown ? row.html : '',
    status: row.status,
    createdAt: iso(row.createdAt),
    editedAt: row.editedAt ? iso(row.editedAt) : null,
    likeCount: row.likeCount,
    liked: row.liked,
    mine: viewerId !== undefined && row.authorId === viewerId,
  };
}

// Cursors: base64url JSON of the last row's keyset position, checked when they come back.
/** Microseconds since 1970, bounded (16 digits: about ±317 years) so the database can always turn them into a time. */
const Micros = z.string().regex(/^-?\d{1,16}$/);
const ThreadCursorSchema = z.object({ p: z.boolean(), t: Micros, i: z.uuid() });
const PostCursorSchema = z.object({ t: Micros, i: z.uuid() });

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
function decode<S extends z.ZodType>(schema: S, cursor: string): z.output<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    raw = undefined;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new AppError('validation_failed', 'The query is not valid.', { fields: { cursor: ['cursor is not valid'] } });
  return parsed.data;
}

export const threadCursor = (row: ThreadListRow) => encode({ p: row.pinned, t: row.micros, i: row.id });
export const postCursorOf = (micros: string, id: string) => encode({ t: micros, i: id });
export const postCursor = (row: PostListRow) => postCursorOf(row.micros, row.id);

export function readThreadCursor(cursor: string | undefined): ThreadCursor | undefined {
  if (!cursor) return undefined;
  const { p, t, i } = decode(ThreadCursorSchema, cursor);
  return { pinned: p, micros: t, id: i };
}

export function readPostCursor(cursor: string | undefined): PostCursor | undefined {
  if (!cursor) return undefined;
  const { t, i } = decode(PostCursorSchema, cursor);
  return { micros: t, id: i };
}

/** A page of `limit` from `limit + 1` rows read: the rows to answer and the cursor after them (null on the last page). */
export function pageOf<R>(rows: R[], limit: number, cursorOf: (row: R) => string): { rows: R[]; nextCursor: string | null } {
  if (rows.length <= limit) return { rows, nextCursor: null };
  const page = rows.slice(0, limit);
  return { rows: page, nextCursor: cursorOf(page[page.length - 1]!) };
}
