/** Course progress: the last lesson a member opened per course, and the lessons they completed. */
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import type { DataSubject } from '../../users/index.ts';
import { courseProgress, lessonCompletions } from './tables.ts';

export interface ProgressRow {
  courseSlug: string;
  lastLessonId: string | null;
  updatedAt: Date;
  completed: string[];
}

export function createProgressStore(db: DbOrTx) {
  return {
    /** Every course the member has started, with completed lesson ids. */
    async all(userId: string, courseSlug?: string): Promise<ProgressRow[]> {
      const where = courseSlug
        ? and(eq(courseProgress.userId, userId), eq(courseProgress.courseSlug, courseSlug))
        : eq(courseProgress.userId, userId);
      const [courses, done] = await Promise.all([
        db.select().from(courseProgress).where(where),
        db
          .select({ courseSlug: lessonCompletions.courseSlug, lessonId: lessonCompletions.lessonId })
          .from(lessonCompletions)
          .where(
            courseSlug
              ? and(eq(lessonCompletions.userId, userId), eq(lessonCompletions.courseSlug, courseSlug))
              : eq(lessonCompletions.userId, userId),
          )
          .orderBy(lessonCompletions.completedAt),
      ]);
      return courses.map((c) => ({
        courseSlug: c.courseSlug,
        lastLessonId: c.lastLessonId,
        updatedAt: c.updatedAt,
        completed: done.filter((d) => d.courseSlug === c.courseSlug).map((d) => d.lessonId),
      }));
    },

    /** Records the lesson the member is on. */
    async visit(userId: string, courseSlug: string, lessonId: string): Promise<void> {
      await db
        .insert(courseProgress)
        .values({ userId, courseSlug, lastLessonId: lessonId })
        .onConflictDoUpdate({
          target: [courseProgress.userId, courseProgress.courseSlug],
          set: { lastLessonId: lessonId, updatedAt: sql`now()` },
        });
    },

    async complete(userId: string, courseSlug: string, lessonId: string, completed: boolean): Promise<void> {
      if (completed) {
        await db.insert(lessonCompletions).values({ userId, courseSlug, lessonId }).onConflictDoNothing();
      } else {
        await db
          .delete(lessonCompletions)
          .where(
            and(
              eq(lessonCompletions.userId, userId),
              eq(lessonCompletions.courseSlug, courseSlug),
              eq(lessonCompletions.lessonId, lessonId),
            ),
          );
      }
    },

    /** The member's part of their data export: their course progress rows as stored. */
    async personalData({ id }: DataSubject) {
      const [courses, completedLessons] = await Promise.all([
        db.select().from(courseProgress).where(eq(courseProgress.userId, id)),
        db.select().from(lessonCompletions).where(eq(lessonCompletions.userId, id)),
      ]);
      return { courseProgress: { courses, completedLessons } };
    },

    /** Deletes the member's progress (account deletion; the profile's foreign key would take it too). */
    async erase({ id }: DataSubject): Promise<void> {
      await db.delete(lessonCompletions).where(eq(lessonCompletions.userId, id));
      await db.delete(courseProgress).where(eq(courseProgress.userId, id));
    },
  };
}
