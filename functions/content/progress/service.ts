/**
 * Course progress for signed-in members who may open the course: lessons marked complete and the
 * lesson to resume at. Only lessons the course still has count (a lesson removed from a course
 * drops out of the figures without a migration).
 */
import type { CourseItem } from '#shared/content/registry.ts';
import type { ContentService } from '../service.ts';
import type { Db } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors.ts';
import type { Viewer } from '../../users/index.ts';
import { createProgressStore, type ProgressRow } from './store.ts';

export interface CourseProgress {
  courseSlug: string;
  completed: string[];
  lastLessonId: string | null;
  total: number;
}

const lessonIds = (course: CourseItem) => course.sections.flatMap((s) => s.lessons.map((l) => l.id));

function summarise(course: CourseItem, row: ProgressRow | undefined): CourseProgress {
  const ids = lessonIds(course);
  const known = new Set(ids);
  return {
    courseSlug: course.slug,
    completed: (row?.completed ?? []).filter((id) => known.has(id)),
    lastLessonId: row?.lastLessonId && known.has(row.lastLessonId) ? row.lastLessonId : null,
    total: ids.length,
  };
}

export function createProgressService({ db, content }: { db: Db; content: ContentService }) {
  const store = createProgressStore(db);
  return {
    /** Progress in one course the viewer may open (the caller checked access). */
    async forCourse(viewer: Viewer, course: CourseItem): Promise<CourseProgress> {
      const [row] = await store.all(viewer.id, course.slug);
      return summarise(course, row);
    },

    /** Records a visit to a lesson and, when given, whether it is complete. */
    async record(viewer: Viewer, course: CourseItem, lessonId: string, completed?: boolean): Promise<CourseProgress> {
      if (!lessonIds(course).includes(lessonId)) throw new AppError('not_found', 'Lesson not found');
      await db.transaction(async (tx) => {
        const txStore = createProgressStore(tx);
        await txStore.visit(viewer.id, course.slug, lessonId);
        if (completed !== undefined) await txStore.complete(viewer.id, course.slug, lessonId, completed);
      });
      return this.forCourse(viewer, course);
    },

    /** Every started course that still exists, newest activity first (the account page). */
    async mine(viewer: Viewer) {
      const rows = await store.all(viewer.id);
      rows.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
      const out = [];
      for (const row of rows) {
        const course = await content.get('course', row.courseSlug);
        if (!course) continue;
        out.push({ ...summarise(course, row), title: course.title, updatedAt: row.updatedAt.toISOString() });
      }
      return { courses: out };
    },
  };
}

export type ProgressService = ReturnType<typeof createProgressService>;
