/**
 * The course viewer's navigation rules (spec point 2 "Courses") as pure functions over the public
 * outline: the current lesson starts at the first; Previous and Next move through every lesson in
 * reading order, across section boundaries, and stop at the first and last.
 */
import type { PublicSection } from '#shared/content/types/course.ts';

/** A section of the public outline, as the content type defines it. */
export type OutlineSection = PublicSection;
export type OutlineLesson = OutlineSection['lessons'][number];

/** A lesson with where it sits: its section, its number in the section and in the course. */
export interface LessonPlace {
  lesson: OutlineLesson;
  sectionIndex: number;
  lessonIndex: number;
  /** 0-based position in the whole course. */
  position: number;
}

/** Every lesson in reading order with its place. */
export function flattenLessons(sections: readonly OutlineSection[]): LessonPlace[] {
  let position = 0;
  return sections.flatMap((section, sectionIndex) =>
    section.lessons.map((lesson, lessonIndex) => ({ lesson, sectionIndex, lessonIndex, position: position++ })),
  );
}

/** The lesson a viewer starts at: the first of the first section, or null for a course without lessons. */
export function firstLessonId(sections: readonly OutlineSection[]): string | null {
  return flattenLessons(sections)[0]?.lesson.id ?? null;
}

/** Where a lesson sits, or undefined when the course has no such lesson. */
export function findLesson(sections: readonly OutlineSection[], lessonId: string | null): LessonPlace | undefined {
  return lessonId === null ? undefined : flattenLessons(sections).find((p) => p.lesson.id === lessonId);
}

/** The lesson before and after the current one; null at the first and the last. */
export function neighbours(sections: readonly OutlineSection[], lessonId: string | null): { previous: string | null; next: string | null } {
  const lessons = flattenLessons(sections);
  const at = lessons.findIndex((p) => p.lesson.id === lessonId);
  if (at === -1) return { previous: null, next: null };
  return { previous: lessons[at - 1]?.lesson.id ?? null, next: lessons[at + 1]?.lesson.id ?? null };
}
