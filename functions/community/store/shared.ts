/**
 * What the parts of the community's store share: keyset cursors (a cursor's time travels as
 * microseconds since the epoch, so a page boundary is exact: a JavaScript Date would drop the
 * microseconds Postgres keeps and repeat or skip rows), the reader and the rule of what they see.
 */
import { and, eq, inArray, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import type { CategoryRow, PostRow, PostStatus, ThreadRow } from '../tables.ts';

/** A keyset position in a thread list: the last row's pin, `last_post_at` (µs) and id. */
export interface ThreadCursor {
  pinned: boolean;
  micros: string;
  id: string;
}

/** A keyset position in a thread's posts: the last row's `created_at` (µs) and id. */
export interface PostCursor {
  micros: string;
  id: string;
}

/** Who reads: the member's id (their own held posts show) and whether they are staff (everything shows, marked). */
export interface Reader {
  id: string | undefined;
  staff: boolean;
}

/** A category with what /community shows beside it. */
export interface CategoryStats extends CategoryRow {
  threadCount: number;
  lastPostAt: Date | null;
}

export type ThreadListRow = ThreadRow & { micros: string };
/** A search hit: the post, its thread and category, and a plain-text excerpt around the match. */
export interface SearchRow {
  postId: string;
  threadId: string;
  title: string;
  threadStatus: ThreadRow['status'];
  status: PostRow['status'];
  isOpener: boolean;
  authorId: string | null;
  createdAt: Date;
  micros: string;
  categorySlug: string;
  categoryName: string;
  excerpt: string;
}
export type PostListRow = PostRow & { micros: string; liked: boolean };
export type NewThread = Pick<ThreadRow, 'title' | 'status'> & { categoryId: string | null; contentId: string | null; authorId: string };
export type NewPost = Pick<PostRow, 'threadId' | 'authorId' | 'body' | 'html' | 'status'> & { isOpener?: boolean; createdAt?: Date };

/** What every part of the community's store works over. */
export interface StoreDeps {
  db: DbOrTx;
}

/** A timestamp column as microseconds since the epoch, in text (exact; bigint would not fit a JS number safely). */
export const micros = (column: AnyColumn) => sql<string>`(extract(epoch from ${column}) * 1000000)::bigint::text`;
/** The instant a cursor names, exactly. */
export const instant = (us: string) => sql`(timestamptz 'epoch' + ${us}::bigint * interval '1 microsecond')`;

/**
 * What a reader may see of a list's rows: staff everything (marked by status); members the rows
 * `shown` to everyone, and their own held ones. A thread list shows visible threads; a thread's
 * posts keep the places of hidden and deleted ones too (with no HTML, answers.ts).
 */
export function readable(status: AnyColumn, author: AnyColumn, reader: Reader, shown: PostStatus[]): SQL | undefined {
  if (reader.staff) return undefined;
  const everyone = inArray(status, shown);
  return reader.id ? or(everyone, and(eq(status, 'held'), sql`${author} = ${reader.id}`)) : everyone;
}
