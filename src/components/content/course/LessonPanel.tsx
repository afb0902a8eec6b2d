/**
 * The Current Lesson tab: where the lesson sits, the gate card or the lesson (loading, error with
 * Retry), 'Mark as complete' for members who keep progress, and Previous Lesson / Next Lesson, which
 * are disabled at the first and last lesson. Without a current lesson it says so (spec point 4).
 * Under a lesson that shows come the members' comments on it (their own chunk, loaded then).
 */
import { lazy, Suspense } from 'react';
import type { AccessLevel } from '#shared/access.ts';
import type { LessonContent } from '../../../lib/browser/api.ts';
import { GateCard } from '../gated/GateCard.tsx';
import { LoadFailure, LoadingLines } from '../gated/LoadStates.tsx';
import type { GatedState } from '../gated/use-gated-resource.ts';
import type { LessonPlace } from './course-nav.ts';
import { LessonBody } from './LessonBody.tsx';

const Comments = lazy(() => import('../../community/Comments.tsx'));

export const NO_LESSON = 'No lesson selected. Please select a lesson from the curriculum.';
/** In place of the gate card for a course no plan includes: the Buy button above the tabs opens it. */
export const SOLD_ONLY = 'This course is sold on its own: buy it above to open its lessons.';

export interface LessonPanelProps {
  courseSlug: string;
  accessLevel: AccessLevel;
  /** The course is sold only on its own (priced, at the free level): no plan opens it, so no gate card offers one. */
  soldOnly?: boolean;
  place: LessonPlace | undefined;
  total: number;
  lesson: GatedState<LessonContent>;
  onRetry: () => void;
  previous: string | null;
  next: string | null;
  onGo: (lessonId: string) => void;
  /** Whether the lesson is complete; undefined when the viewer keeps no progress. */
  complete: boolean | undefined;
  onComplete: (completed: boolean) => void;
}

const NAV =
  'min-h-11 rounded-lg px-4 py-2 text-sm font-semibold ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50';

function LessonState({
  courseSlug,
  accessLevel,
  soldOnly,
  lesson,
  onRetry,
}: Pick<LessonPanelProps, 'courseSlug' | 'accessLevel' | 'soldOnly' | 'lesson' | 'onRetry'>) {
  switch (lesson.status) {
    case 'ready':
      return <LessonBody courseSlug={courseSlug} lesson={lesson.data} />;
    case 'gate':
      if (soldOnly)
        return (
          <p data-testid="lesson-sold-only" className="rounded-2xl border border-dashed border-slate-300 p-8 text-center text-slate-600">
            {SOLD_ONLY}
          </p>
        );
      return <GateCard level={accessLevel} what="lesson" signedIn={lesson.signedIn} />;
    case 'error':
    case 'not-found':
      return <LoadFailure message={lesson.message} onRetry={lesson.status === 'error' ? onRetry : undefined} />;
    default:
      return <LoadingLines label="Loading the lesson…" />;
  }
}

export function LessonPanel(props: LessonPanelProps) {
  const { place, total, previous, next, onGo, complete, onComplete } = props;
  if (!place) return <p className="rounded-2xl border border-dashed border-slate-300 p-8 text-center text-slate-600">{NO_LESSON}</p>;
  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-sm text-slate-500">
            Section {place.sectionIndex + 1} · Lesson {place.position + 1} of {total}
          </p>
          <h2 className="mt-1 text-2xl font-bold text-ink" data-testid="lesson-title">
            {place.lesson.title}
          </h2>
        </div>
        {complete !== undefined && props.lesson.status === 'ready' && (
          <label className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-3 text-sm font-semibold text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
            <input
              type="checkbox"
              checked={complete}
              onChange={(e) => onComplete(e.target.checked)}
              className="h-4 w-4 rounded border-slate-300 accent-emerald-600"
            />
            Mark as complete
          </label>
        )}
      </header>
      <LessonState {...props} />
      <nav aria-label="Lesson navigation" className="flex justify-between gap-3 border-t border-slate-200 pt-4">
        <button type="button" className={NAV} disabled={!previous} onClick={() => previous && onGo(previous)}>
          <span aria-hidden="true">←</span> Previous Lesson
        </button>
        <button type="button" className={NAV} disabled={!next} onClick={() => next && onGo(next)}>
          Next Lesson <span aria-hidden="true">→</span>
        </button>
      </nav>
      {props.lesson.status === 'ready' && (
        <Suspense fallback={null}>
          <Comments key={props.lesson.data.id} where={{ type: 'course', slug: props.courseSlug, lessonId: props.lesson.data.id }} />
        </Suspense>
      )}
    </div>
  );
}
