/**
 * The account page's course progress (beyond the spec): every course the member started, newest
 * first. While it loads it keeps the room of its empty state (the likeliest), as the page's skeleton does.
 */
import { startTransition, useEffect, useState, type ReactNode } from 'react';
import { fetchMyProgress, type MyCourseProgress } from '../../lib/browser/api.ts';
import { ProgressBar } from '../content/gated/ProgressBar.tsx';
import { Reserved } from '../content/gated/LoadStates.tsx';
import { CardEmpty, CardFailure } from './AccountCardStates.tsx';

type State = { status: 'loading' } | { status: 'error' } | { status: 'ready'; courses: MyCourseProgress[] };

const HEADING = 'course-progress-heading';
const empty = <CardEmpty text="You have not started a course yet." href="/courses" link="Browse courses" />;
const loading = <Reserved label="Loading your course progress…">{empty}</Reserved>;

function Shell({ className, children }: { className: string; children: ReactNode }) {
  return (
    <section aria-labelledby={HEADING} className={className}>
      <h2 id={HEADING} className="text-lg font-semibold text-slate-900">
        Course Progress
      </h2>
      {children}
    </section>
  );
}

/** The card while the account page loads. */
export function CourseProgressSkeleton({ className }: { className: string }) {
  return <Shell className={className}>{loading}</Shell>;
}

export function CourseProgressCard({ className }: { className: string }) {
  const [state, setState] = useState<State>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    fetchMyProgress(controller.signal)
      .then((result) =>
        startTransition(() => setState(result.ok ? { status: 'ready', courses: result.data.courses } : { status: 'error' })),
      )
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [attempt]);

  return (
    <Shell className={className}>
      {state.status === 'loading' && loading}
      {state.status === 'error' && (
        <CardFailure
          message="We could not load your course progress."
          onRetry={() => {
            setState({ status: 'loading' });
            setAttempt((n) => n + 1);
          }}
        />
      )}
      {state.status === 'ready' && state.courses.length === 0 && empty}
      {state.status === 'ready' && state.courses.length > 0 && (
        <ul className="mt-4 flex flex-col gap-5">
          {state.courses.map((course) => (
            <li key={course.courseSlug}>
              <a href={`/courses/${encodeURIComponent(course.courseSlug)}`} className="font-semibold text-brand-700 hover:underline">
                {course.title}
              </a>
              <div className="mt-2">
                <ProgressBar completed={course.completed.length} total={course.total} label={`${course.title} progress`} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </Shell>
  );
}
