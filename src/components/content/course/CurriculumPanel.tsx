/**
 * The curriculum panel of the course viewer: every section collapsible (all open at first), each
 * lesson a button that opens it in the Current Lesson tab. The current lesson is marked, and lessons
 * a member completed carry a check.
 */
import { useId } from 'react';
import type { OutlineSection } from './course-nav.ts';

export interface CurriculumPanelProps {
  sections: readonly OutlineSection[];
  currentId: string | null;
  completed: ReadonlySet<string>;
  expanded: ReadonlySet<string>;
  onToggleSection: (sectionId: string) => void;
  onPick: (lessonId: string) => void;
}

function Check() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 shrink-0 text-emerald-600" fill="currentColor">
      <path
        fillRule="evenodd"
        d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z"
        clipRule="evenodd"
      />
    </svg>
  );
}

export function CurriculumPanel({ sections, currentId, completed, expanded, onToggleSection, onPick }: CurriculumPanelProps) {
  const id = useId();
  const lessonCount = sections.reduce((n, s) => n + s.lessons.length, 0);
  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-2xl border border-slate-200 bg-white">
      <header className="flex items-center justify-between gap-2 border-b border-slate-200 px-5 py-4">
        <h2 id={`${id}-heading`} className="text-lg font-semibold text-ink">
          Curriculum
        </h2>
        <p className="text-sm text-slate-500">
          {sections.length} sections · {lessonCount} lessons
        </p>
      </header>
      {sections.length === 0 && <p className="px-5 py-4 text-sm text-slate-600">Lessons are being prepared.</p>}
      <ol className="divide-y divide-slate-100">
        {sections.map((section, s) => {
          const open = expanded.has(section.id);
          const listId = `${id}-section-${s}`;
          return (
            <li key={section.id} className="px-3 py-2">
              <button
                type="button"
                aria-expanded={open}
                aria-controls={listId}
                onClick={() => onToggleSection(section.id)}
                className="flex w-full items-start gap-2 rounded-lg px-2 py-2 text-left font-medium text-ink hover:bg-slate-50"
              >
                <svg
                  aria-hidden="true"
                  viewBox="0 0 20 20"
                  className={`mt-0.5 h-4 w-4 shrink-0 text-slate-500 transition-transform ${open ? 'rotate-90' : ''}`}
                  fill="currentColor"
                >
                  <path d="M7.2 4.2a1 1 0 0 1 1.4 0l5 5a1 1 0 0 1 0 1.4l-5 5a1 1 0 1 1-1.4-1.4L11.5 10 7.2 5.6a1 1 0 0 1 0-1.4Z" />
                </svg>
                <span>
                  <span className="text-slate-500">Section {s + 1}.</span> {section.title}
                </span>
              </button>
              <ol id={listId} hidden={!open} className="mb-1 flex flex-col gap-0.5 pl-6 text-sm">
                {section.lessons.map((lesson, l) => {
                  const current = lesson.id === currentId;
                  const done = completed.has(lesson.id);
                  return (
                    <li key={lesson.id}>
                      <button
                        type="button"
                        aria-current={current ? 'true' : undefined}
                        onClick={() => onPick(lesson.id)}
                        className={`flex w-full items-start gap-2 rounded-lg px-2 py-1.5 text-left ${
                          current ? 'bg-brand-50 font-semibold text-brand-800' : 'text-slate-600 hover:bg-slate-50 hover:text-ink'
                        }`}
                      >
                        <span className={`shrink-0 ${current ? 'text-brand-700' : 'text-slate-500'}`}>
                          {s + 1}.{l + 1}
                        </span>
                        <span className="flex-1">{lesson.title}</span>
                        {done && (
                          <>
                            <Check />
                            <span className="sr-only">(completed)</span>
                          </>
                        )}
                      </button>
                    </li>
                  );
                })}
              </ol>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
