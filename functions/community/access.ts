/**
 * Who reads and writes where, with the one access rule (`checkAccess`): a category by its level
 * (`anyoneReads` opens a free one to visitors for reading only), comments by the level (and, for a
 * course sold on its own, the purchase) of the article or lesson they sit under, looked up when
 * asked, so a changed level follows at once. Errors are the gated body's: 401 signed out, 403 with
 * the required level below it, 404 for what does not exist; no error names a thread's title.
 *
 * A comments thread names its item in `content_id`: `blog:<item id>` or
 * `course:<item id>:<lesson id>` (an item's stable id, which a new slug does not change; the type
 * is part of it because an MDX item's id is its slug, which two types may share).
 */
import { checkAccess, isStaff } from '#shared/access.ts';
import type { ContentService } from '../content/index.ts';
import { assertAccess, type GatedContent } from '../content/index.ts';
import { AppError } from '../platform/errors.ts';
import type { Viewer } from '../users/index.ts';
import type { ThreadPlace } from './answers.ts';
import type { CategoryRow, ThreadRow } from './tables.ts';

/** An article's or a lesson's comments, as the routes name them. */
export type CommentsPlace = { type: 'blog'; slug: string } | { type: 'course'; slug: string; lessonId: string };

/** The item a comments thread belongs to, found and let in: its `content_id`, its title and where it is. */
export interface CommentsTarget {
  contentId: string;
  title: string;
  place: Extract<ThreadPlace, { kind: 'comments' }>;
}

export const threadNotFound = () => new AppError('not_found', 'Thread not found');

export function createCommunityAccess({ content, gated }: { content: ContentService; gated: GatedContent }) {
  /** An article's or lesson's comments, opened to whoever may read its body (401, 403, 404 as the body answers). */
  async function commentsOf(viewer: Viewer | undefined, place: CommentsPlace): Promise<CommentsTarget> {
    if (!viewer) throw new AppError('unauthorized', 'Please sign in.', { headers: { 'WWW-Authenticate': 'Bearer' } });
    if (place.type === 'blog') {
      const item = await content.get('blog', place.slug);
      if (!item) throw new AppError('not_found', 'Article not found');
      assertAccess(viewer, item.accessLevel, 'article');
      return { contentId: `blog:${item.id}`, title: item.title, place: { kind: 'comments', type: 'blog', slug: item.slug } };
    }
    // The course's own rule (level, or a purchase for one sold on its own), as its lessons answer.
    const course = await gated.courseFor(viewer, place.slug);
    const lesson = course.sections.flatMap((s) => s.lessons).find((l) => l.id === place.lessonId);
    if (!lesson) throw new AppError('not_found', 'Lesson not found');
    return {
      contentId: `course:${course.id}:${lesson.id}`,
      title: `${course.title}: ${lesson.title}`,
      place: { kind: 'comments', type: 'course', slug: course.slug, lessonId: lesson.id },
    };
  }

  /** The comments place a `content_id` names, let in for the viewer (404 once the item is gone). */
  async function commentsById(viewer: Viewer | undefined, contentId: string): Promise<CommentsTarget> {
    const [type, id, lessonId] = contentId.split(':');
    const item = type === 'blog' || type === 'course' ? await content.getById(type, id ?? '') : undefined;
    if (!item) throw threadNotFound();
    return commentsOf(
      viewer,
      item.type === 'course' ? { type: 'course', slug: item.slug, lessonId: lessonId ?? '' } : { type: 'blog', slug: item.slug },
    );
  }

  return {
    commentsOf,

    /** Reading a category: anyone when it says so, else the level rule (401 signed out, 403 below it). */
    assertReadCategory(viewer: Viewer | undefined, category: CategoryRow): void {
      if (!category.anyoneReads) assertAccess(viewer ?? null, category.accessLevel, 'discussion');
    },

    /** Posting in a category: signed in at its level, whoever may read it. */
    assertPostCategory(viewer: Viewer, category: CategoryRow): void {
      assertAccess(viewer, category.accessLevel, 'discussion');
    },

    /**
     * A thread the viewer may read, where it lives: the level first (so the answer never tells a
     * reader below it whether the thread is held or hidden), then its status (held: its author and
     * staff; hidden or deleted: staff) or 404.
     */
    async assertReadThread(viewer: Viewer | undefined, thread: ThreadRow, category: CategoryRow | null): Promise<ThreadPlace> {
      let place: ThreadPlace;
      if (category) {
        if (!category.anyoneReads) assertAccess(viewer ?? null, category.accessLevel, 'discussion');
        place = {
          kind: 'category',
          slug: category.slug,
          name: category.name,
          accessLevel: category.accessLevel,
          anyoneReads: category.anyoneReads,
        };
      } else {
        place = (await commentsById(viewer, thread.contentId ?? '')).place;
      }
      const staff = isStaff(viewer?.role);
      if (thread.status === 'visible' || staff) return place;
      if (thread.status === 'held' && viewer && thread.authorId === viewer.id) return place;
      throw threadNotFound();
    },

    /**
     * Whether the member may read the thread now (the reply mails ask before each mail): the same
     * rule as `assertReadThread`, answered as a boolean.
     */
    async mayRead(viewer: Viewer, thread: ThreadRow, category: CategoryRow | null): Promise<boolean> {
      if (category) {
        if (!category.anyoneReads && !checkAccess(viewer, category.accessLevel).allowed) return false;
      } else {
        try {
          await commentsById(viewer, thread.contentId ?? '');
        } catch (err) {
          if (err instanceof AppError) return false;
          throw err;
        }
      }
      return thread.status === 'visible' || isStaff(viewer.role) || (thread.status === 'held' && thread.authorId === viewer.id);
    },
  };
}

export type CommunityAccess = ReturnType<typeof createCommunityAccess>;
