/** The Overview tab: what the course holds and a button into the current lesson. */
import { accessLabel, type AccessLevel } from '#shared/access.ts';
import type { LessonPlace, OutlineSection } from './course-nav.ts';

export interface OverviewPanelProps {
  skillLevel: string;
  duration: string;
  accessLevel: AccessLevel;
  /** Sold only on its own (priced at the free level): no plan includes it. */
  soldOnly?: boolean;
  sections: readonly OutlineSection[];
  current: LessonPlace | undefined;
  /** Whether the member has been here before (resume rather than start). */
  resuming: boolean;
  onOpenLesson: () => void;
}

export function OverviewPanel({
  skillLevel,
  duration,
  accessLevel,
  soldOnly,
  sections,
  current,
  resuming,
  onOpenLesson,
}: OverviewPanelProps) {
  const lessons = sections.reduce((n, s) => n + s.lessons.length, 0);
  const facts: [string, string][] = [
    ['Skill level', skillLevel],
    ['Duration', duration],
    ['Sections', String(sections.length)],
    ['Lessons', String(lessons)],
    ['Access', soldOnly ? 'One-time purchase' : accessLabel(accessLevel)],
  ];
  return (
    <div className="flex flex-col gap-6">
      <h2 className="text-xl font-semibold text-ink">About this course</h2>
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3">
        {facts.map(([term, value]) => (
          <div key={term} className="rounded-xl bg-slate-50 px-4 py-3">
            <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{term}</dt>
            <dd className="mt-1 font-semibold text-ink">{value}</dd>
          </div>
        ))}
      </dl>
      {sections.length > 0 && (
        <div>
          <h3 className="font-semibold text-ink">What you will work through</h3>
          <ol className="mt-2 list-decimal space-y-1 pl-5 text-slate-700">
            {sections.map((s) => (
              <li key={s.id}>
                {s.title} <span className="text-sm text-slate-500">({s.lessons.length} lessons)</span>
              </li>
            ))}
          </ol>
        </div>
      )}
      {current && (
        <div className="flex flex-wrap items-center gap-3 rounded-xl border border-brand-200 bg-brand-50 p-4">
          <p className="flex-1 text-sm text-slate-700">
            {resuming ? 'Continue where you left off:' : 'Start with:'}{' '}
            <span className="font-semibold text-ink">{current.lesson.title}</span>
          </p>
          <button
            type="button"
            onClick={onOpenLesson}
            className="min-h-11 rounded-lg bg-brand-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-700"
          >
            {resuming ? 'Continue Lesson' : 'Start Lesson'}
          </button>
        </div>
      )}
    </div>
  );
}
