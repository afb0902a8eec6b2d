/** The progress domain's tables: where a member is in each course, and the lessons they completed. */
import { pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../platform/db/columns.ts';
import { profiles } from '../../users/tables.ts';

/** Where a member is in a course: the last lesson opened (to resume) and when. */
export const courseProgress = pgTable(
  'course_progress',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    courseSlug: text('course_slug').notNull(),
    lastLessonId: text('last_lesson_id'),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.courseSlug] })],
);

/** Lessons a member marked complete. */
export const lessonCompletions = pgTable(
  'lesson_completions',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    courseSlug: text('course_slug').notNull(),
    lessonId: text('lesson_id').notNull(),
    completedAt: timestamptz('completed_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.courseSlug, t.lessonId] })],
);
