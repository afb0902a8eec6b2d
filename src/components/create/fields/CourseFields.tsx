/**
 * A course's own fields in the create form: price, duration, skill level, and its sections and
 * lessons (added, titled, written and removed here; ids are made from titles when sent).
 */
import type { ContentDraft, SectionDraft } from '#shared/create-form.ts';
import { INPUT_CLASS } from '../../forms/TextField.tsx';
import { errorFor, Field, PriceField, SMALL, textInput, type TypeFieldsProps } from './form-parts.tsx';

export function CourseFields(props: TypeFieldsProps) {
  const { draft, set, errors } = props;
  return (
    <>
      <PriceField {...props} />
      <Field label="Duration" error={errorFor(errors, 'duration')} hint="For example 6 weeks.">
        {textInput(props, 'duration')}
      </Field>
      <Field label="Skill level" error={errorFor(errors, 'skillLevel')}>
        {(id) => (
          <select
            id={id}
            className={INPUT_CLASS}
            value={draft.skillLevel}
            onChange={(e) => set('skillLevel', e.target.value as ContentDraft['skillLevel'])}
          >
            <option value="beginner">Beginner</option>
            <option value="intermediate">Intermediate</option>
            <option value="advanced">Advanced</option>
          </select>
        )}
      </Field>
      <SectionsEditor {...props} />
    </>
  );
}

/** The curriculum: sections of lessons, each with a title (and a lesson its text). */
function SectionsEditor({ draft, update, errors }: TypeFieldsProps) {
  const sections = (change: (s: SectionDraft[]) => SectionDraft[]) => update((d) => ({ ...d, sections: change(d.sections) }));
  const editLesson = (i: number, j: number, patch: { title?: string; content?: string }) =>
    sections((all) => all.map((s, k) => (k === i ? { ...s, lessons: s.lessons.map((l, m) => (m === j ? { ...l, ...patch } : l)) } : s)));
  return (
    <fieldset className="space-y-4">
      <legend className="text-sm font-medium text-slate-700">Sections and lessons</legend>
      {errorFor(errors, 'sections') && <p className="text-sm text-red-700">{errorFor(errors, 'sections')}</p>}
      {draft.sections.map((section, i) => (
        <div key={i} className="space-y-3 rounded-xl p-4 ring-1 ring-slate-200">
          <Field label={`Section ${i + 1} title`}>
            {(id) => (
              <input
                id={id}
                className={INPUT_CLASS}
                value={section.title}
                onChange={(e) => sections((all) => all.map((s, k) => (k === i ? { ...s, title: e.target.value } : s)))}
              />
            )}
          </Field>
          {section.lessons.map((lesson, j) => (
            <div key={j} className="space-y-2 border-l-2 border-slate-200 pl-4">
              <Field label={`Lesson ${j + 1} title`}>
                {(id) => (
                  <input
                    id={id}
                    className={INPUT_CLASS}
                    value={lesson.title}
                    onChange={(e) => editLesson(i, j, { title: e.target.value })}
                  />
                )}
              </Field>
              <Field label={`Lesson ${j + 1} content`}>
                {(id) => (
                  <textarea
                    id={id}
                    rows={3}
                    className={INPUT_CLASS}
                    value={lesson.content}
                    onChange={(e) => editLesson(i, j, { content: e.target.value })}
                  />
                )}
              </Field>
              <button
                type="button"
                className={SMALL}
                onClick={() => sections((all) => all.map((s, k) => (k === i ? { ...s, lessons: s.lessons.filter((_, m) => m !== j) } : s)))}
              >
                Remove lesson {j + 1}
              </button>
            </div>
          ))}
          <div className="flex gap-2">
            <button
              type="button"
              className={SMALL}
              onClick={() =>
                sections((all) => all.map((s, k) => (k === i ? { ...s, lessons: [...s.lessons, { title: '', content: '' }] } : s)))
              }
            >
              Add Lesson
            </button>
            <button type="button" className={SMALL} onClick={() => sections((all) => all.filter((_, k) => k !== i))}>
              Remove section {i + 1}
            </button>
          </div>
        </div>
      ))}
      <button
        type="button"
        className={SMALL}
        onClick={() => sections((all) => [...all, { title: '', lessons: [{ title: '', content: '' }] }])}
      >
        Add Section
      </button>
    </fieldset>
  );
}
