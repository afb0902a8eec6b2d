import { describe, expect, it } from 'vitest';
import { findLesson, firstLessonId, flattenLessons, neighbours, type OutlineSection } from './course-nav.ts';

const lesson = (id: string) => ({ id, title: `Lesson ${id}` });
const COURSE: OutlineSection[] = [
  { id: 's1', title: 'One', lessons: [lesson('a'), lesson('b')] },
  { id: 's2', title: 'Two', lessons: [lesson('c')] },
  { id: 's3', title: 'Three', lessons: [lesson('d'), lesson('e')] },
];

describe('course navigation', () => {
  it('starts at the first lesson of the first section', () => {
    expect(firstLessonId(COURSE)).toBe('a');
  });

  it('has no lesson to start at when the course has none', () => {
    expect(firstLessonId([])).toBeNull();
    expect(neighbours([], null)).toEqual({ previous: null, next: null });
  });

  it('numbers lessons across sections in reading order', () => {
    expect(flattenLessons(COURSE).map((p) => [p.lesson.id, p.sectionIndex, p.lessonIndex, p.position])).toEqual([
      ['a', 0, 0, 0],
      ['b', 0, 1, 1],
      ['c', 1, 0, 2],
      ['d', 2, 0, 3],
      ['e', 2, 1, 4],
    ]);
    expect(findLesson(COURSE, 'd')?.sectionIndex).toBe(2);
    expect(findLesson(COURSE, 'nope')).toBeUndefined();
    expect(findLesson(COURSE, null)).toBeUndefined();
  });

  it('has no previous lesson at the first and no next lesson at the last', () => {
    expect(neighbours(COURSE, 'a')).toEqual({ previous: null, next: 'b' });
    expect(neighbours(COURSE, 'e')).toEqual({ previous: 'd', next: null });
  });

  it('moves across section boundaries both ways', () => {
    expect(neighbours(COURSE, 'b').next).toBe('c');
    expect(neighbours(COURSE, 'c')).toEqual({ previous: 'b', next: 'd' });
    expect(neighbours(COURSE, 'd').previous).toBe('c');
  });

  it('has no neighbours for a lesson the course does not have', () => {
    expect(neighbours(COURSE, 'zzz')).toEqual({ previous: null, next: null });
  });
});
