/** The account page's course progress (beyond the spec): every course the member started, newest first. */
import { useEffect, useState } from 'react';
import { fetchMyProgress, type MyCourseProgress } from '../../lib/browser/api.ts';
import { ProgressBar } from '../content/gated/ProgressBar.tsx';
import { CardEmpty, CardFailure } from './AccountCardStates.tsx';

type State = { status: 'loading' } | { status: 'error' } | { status: 'ready'; courses: MyCourseProgress[] };

export function CourseProgressCard({ className }: { className: string }) {
  const [state, setState] = useState<State>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    fetchMyProgress(controller.signal)
      .then((result) => setState(result.ok ? { status: 'ready', courses: result.data.courses } : { status: 'error' }))
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [attempt]);

  return (
    <section aria-labelledby="course-progress-heading" className={className}>
      <h2 id="course-progress-heading" className="text-lg font-semibold text-slate-900">
        Course Progress
      </h2>
      {state.status === 'loading' && (
        <div className="mt-4 flex justify-center" role="status">
          <span className="h-6 w-6 animate-spin rounded-full border-4 border-brand-200 border-t-brand-600" />
          <span className="sr-only">Loading your course progress…</span>
        </div>
      )}
      {state.status === 'error' && (
        <CardFailure
          message="We could not load your course progress."
          onRetry={() => {
            setState({ status: 'loading' });
            setAttempt((n) => n + 1);
          }}
        />
      )}
      {state.status === 'ready' && state.courses.length === 0 && (
        <CardEmpty text="You have not started a course yet." href="/courses" link="Browse courses" />
      )}
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
    </section>
  );
}
