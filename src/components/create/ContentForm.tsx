/**
 * The creation form for one content type (spec points 2, 3, 5 and 8): Manual Entry and AI
 * Generation sub-tabs; title, description, content (blogs only), tags as comma-separated text,
 * access level (default free), media uploads (image, video, PDF; several at once; removed by
 * index), and each type's own fields (a course's sections and lessons; a tool's or market item's
 * file, link, price and file type). Checked with the server's schema before sending; the submit
 * button is disabled with a spinner while sending; success toasts '{Type} created' and goes to
 * the list, failure toasts the spec's text and shows the server's field errors. Cancel goes back.
 * A field's error goes as soon as the field is valid (`standingErrors`); uploads show their
 * progress and can be cancelled (`useUploads`).
 */
import { useId, useMemo, useState, type ReactNode } from 'react';
import { ACCESS_LEVELS, accessLabel } from '#shared/access.ts';
import type { ContentType } from '#shared/content/registry.ts';
import { createItem, generateDraft, updateItem } from '../../lib/browser/create.ts';
import {
  buildPayload,
  createdToast,
  createFailedText,
  draftErrors,
  EMPTY_DRAFT,
  listRoute,
  standingErrors,
  type ContentDraft,
  type SectionDraft,
  updatedToast,
} from '#shared/create-form.ts';
import { toast } from '../../lib/browser/toast.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import { UploadProgress } from './UploadProgress.tsx';
import { useUploads, type Uploaded } from './use-uploads.ts';

const BUTTON = 'min-h-11 rounded-lg px-5 py-2.5 text-sm font-semibold disabled:opacity-60';
const PRIMARY = `${BUTTON} bg-brand-600 text-white hover:bg-brand-700`;
const SECONDARY = `${BUTTON} text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50`;
const SMALL = 'rounded-md px-2.5 py-1 text-sm font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50';

const Spinner = () => (
  <span aria-hidden="true" className="inline-block h-4 w-4 animate-spin rounded-full border-2 border-white/40 border-t-white" />
);

type Errors = Record<string, string>;

/** The first error for a field or anything inside it (tags.2 → tags). */
const errorFor = (errors: Errors, field: string) =>
  errors[field] ?? Object.entries(errors).find(([key]) => key.startsWith(`${field}.`))?.[1];

function Field({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string | undefined;
  hint?: string;
  children: (id: string, describedBy?: string) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children(id, error ? errorId : undefined)}
      {hint && !error && <p className="mt-1 text-sm text-slate-500">{hint}</p>}
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** An existing database item being edited: its id and the form filled from it. */
export interface Editing {
  id: string;
  /** Unpublished items have no public page: saving one returns to the admin dashboard. */
  published: boolean;
  initial: ContentDraft;
}

export function ContentForm({ type, editing }: { type: ContentType; editing?: Editing | undefined }) {
  const [draft, setDraft] = useState<ContentDraft>(editing?.initial ?? EMPTY_DRAFT);
  const [mode, setMode] = useState<'manual' | 'ai'>('manual');
  // The errors of the last check and the draft they were found in; a field's error stands only while it still fails.
  const [checked, setChecked] = useState<{ errors: Errors; draft: ContentDraft }>({ errors: {}, draft: EMPTY_DRAFT });
  const errors = useMemo(() => standingErrors(type, checked.errors, checked.draft, draft), [type, checked, draft]);
  const [prompt, setPrompt] = useState('');
  const [generating, setGenerating] = useState(false);
  const [generated, setGenerated] = useState(false);
  const [aiError, setAiError] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const ids = useId();

  const set = <K extends keyof ContentDraft>(key: K, value: ContentDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const input =
    (key: 'title' | 'description' | 'tags' | 'downloadUrl' | 'externalLink' | 'price' | 'fileType' | 'duration') =>
    (id: string, describedBy?: string) => (
      <input
        id={id}
        className={INPUT_CLASS}
        value={draft[key]}
        onChange={(e) => set(key, e.target.value)}
        aria-invalid={describedBy ? true : undefined}
        aria-describedby={describedBy}
        {...(key === 'price' ? { inputMode: 'decimal' as const } : {})}
      />
    );

  async function generate() {
    setGenerating(true);
    setAiError('');
    const result = await generateDraft(type, prompt);
    setGenerating(false);
    if (!result.ok) {
      setAiError(
        result.kind === 'error' || result.kind === 'not-found' ? result.message : 'You cannot draft with AI. Please sign in as an editor.',
      );
      return;
    }
    const { title, description, body, tags } = result.data.content;
    setDraft((d) => ({ ...d, title, description, content: type === 'blog' ? body : d.content, tags: tags.join(', ') }));
    setGenerated(true);
  }

  const onUploaded = ({ area, url, file, mediaType }: Uploaded) => {
    if (area === 'protected') set('downloadUrl', url);
    else setDraft((d) => ({ ...d, media: [...d.media, { url, type: mediaType, alt: file.name.slice(0, 300) }] }));
  };
  const uploads = useUploads(onUploaded);
  const uploading = uploads.uploading;

  async function submit() {
    const payload = buildPayload(type, draft);
    const problems = draftErrors(type, payload);
    setChecked({ errors: problems, draft });
    if (Object.keys(problems).length) {
      setMode('manual');
      return;
    }
    setSubmitting(true);
    const result = editing ? await updateItem(type, editing.id, payload) : await createItem(type, payload);
    if (result.ok) {
      toast((editing ? updatedToast : createdToast)(type, result.data.item.title));
      // Long enough to read the toast; the button stays busy meanwhile. An edit opens the item itself.
      const next = !editing ? listRoute(type) : editing.published ? result.data.path : '/admin';
      window.setTimeout(() => window.location.assign(next), 1200);
      return;
    }
    setSubmitting(false);
    if (result.kind === 'error' && result.fields)
      setChecked({
        errors: Object.fromEntries(Object.entries(result.fields).map(([key, messages]) => [key, messages[0] ?? 'Not valid'])),
        draft,
      });
    toast({
      title: 'Error',
      description: editing ? 'The changes could not be saved. Please try again.' : createFailedText(type),
      variant: 'destructive',
    });
  }

  const sections = (update: (s: SectionDraft[]) => SectionDraft[]) => setDraft((d) => ({ ...d, sections: update(d.sections) }));

  return (
    <form
      noValidate
      aria-label="Create content"
      className="space-y-6"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div role="tablist" aria-label="How to write it" className="inline-flex rounded-lg bg-slate-100 p-1">
        {(['manual', 'ai'] as const).map((m) => (
          <button
            key={m}
            type="button"
            role="tab"
            id={`${ids}-${m}`}
            aria-selected={mode === m}
            aria-controls={`${ids}-${m}-panel`}
            onClick={() => setMode(m)}
            className={`rounded-md px-4 py-2 text-sm font-semibold ${mode === m ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600'}`}
          >
            {m === 'manual' ? 'Manual Entry' : 'AI Generation'}
          </button>
        ))}
      </div>

      {mode === 'ai' ? (
        <div role="tabpanel" id={`${ids}-ai-panel`} aria-labelledby={`${ids}-ai`} className="space-y-4">
          <Field label="What should it be about?" hint="The draft fills the form; you can edit everything before creating.">
            {(id) => <textarea id={id} rows={4} className={INPUT_CLASS} value={prompt} onChange={(e) => setPrompt(e.target.value)} />}
          </Field>
          <button type="button" className={PRIMARY} disabled={generating || !prompt.trim()} onClick={() => void generate()}>
            {generating ? (
              <span className="inline-flex items-center gap-2">
                <Spinner /> Generating...
              </span>
            ) : (
              'Generate'
            )}
          </button>
          {aiError && (
            <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
              {aiError}
            </p>
          )}
          {generated && (
            <section aria-label="Generated content" className="space-y-3 rounded-2xl bg-slate-50 p-6 ring-1 ring-slate-200">
              <h2 className="text-xl font-bold text-slate-900">{draft.title}</h2>
              <p className="text-slate-700">{draft.description}</p>
              {type === 'blog' && <div className="max-h-64 overflow-auto whitespace-pre-wrap text-sm text-slate-700">{draft.content}</div>}
              <p className="text-sm text-slate-600">Tags: {draft.tags}</p>
              <button type="button" className={SECONDARY} onClick={() => setMode('manual')}>
                Edit Generated Content
              </button>
            </section>
          )}
        </div>
      ) : (
        <div role="tabpanel" id={`${ids}-manual-panel`} aria-labelledby={`${ids}-manual`} className="space-y-5">
          <Field label="Title" error={errorFor(errors, 'title')}>
            {input('title')}
          </Field>
          <Field label="Description" error={errorFor(errors, 'description')}>
            {input('description')}
          </Field>
          {type === 'blog' && (
            <Field label="Content" error={errorFor(errors, 'content')} hint="Markdown.">
              {(id, describedBy) => (
                <textarea
                  id={id}
                  rows={12}
                  className={INPUT_CLASS}
                  value={draft.content}
                  onChange={(e) => set('content', e.target.value)}
                  aria-invalid={describedBy ? true : undefined}
                  aria-describedby={describedBy}
                />
              )}
            </Field>
          )}
          <Field label="Tags" error={errorFor(errors, 'tags')} hint="Separate tags with commas.">
            {input('tags')}
          </Field>
          <Field label="Access Level" error={errorFor(errors, 'accessLevel')}>
            {(id) => (
              <select
                id={id}
                className={INPUT_CLASS}
                value={draft.accessLevel}
                onChange={(e) => set('accessLevel', e.target.value as ContentDraft['accessLevel'])}
              >
                {ACCESS_LEVELS.map((level) => (
                  <option key={level} value={level}>
                    {accessLabel(level)}
                  </option>
                ))}
              </select>
            )}
          </Field>

          {(type === 'tool' || type === 'market') && (
            <>
              <Field
                label="Download file"
                error={errorFor(errors, 'downloadUrl')}
                hint="A private file key (upload below) or an https:// link."
              >
                {input('downloadUrl')}
              </Field>
              <Field label="Upload the download file">
                {(id) => (
                  <input
                    id={id}
                    type="file"
                    disabled={uploading}
                    onChange={(e) => {
                      void uploads.upload(e.target.files, 'protected');
                      e.target.value = '';
                    }}
                    className="mt-1 block text-sm"
                  />
                )}
              </Field>
              <Field label="External link" error={errorFor(errors, 'externalLink')}>
                {input('externalLink')}
              </Field>
            </>
          )}
          {(type === 'market' || type === 'course') && (
            <Field label="Price (USD)" error={errorFor(errors, 'price')} hint="Empty or 0: free.">
              {input('price')}
            </Field>
          )}
          {type === 'market' && (
            <Field label="File type" error={errorFor(errors, 'fileType')} hint="For example PDF or Figma file.">
              {input('fileType')}
            </Field>
          )}
          {type === 'course' && (
            <>
              <Field label="Duration" error={errorFor(errors, 'duration')} hint="For example 6 weeks.">
                {input('duration')}
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
                              onChange={(e) =>
                                sections((all) =>
                                  all.map((s, k) =>
                                    k === i
                                      ? { ...s, lessons: s.lessons.map((l, m) => (m === j ? { ...l, title: e.target.value } : l)) }
                                      : s,
                                  ),
                                )
                              }
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
                              onChange={(e) =>
                                sections((all) =>
                                  all.map((s, k) =>
                                    k === i
                                      ? { ...s, lessons: s.lessons.map((l, m) => (m === j ? { ...l, content: e.target.value } : l)) }
                                      : s,
                                  ),
                                )
                              }
                            />
                          )}
                        </Field>
                        <button
                          type="button"
                          className={SMALL}
                          onClick={() =>
                            sections((all) => all.map((s, k) => (k === i ? { ...s, lessons: s.lessons.filter((_, m) => m !== j) } : s)))
                          }
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
                          sections((all) =>
                            all.map((s, k) => (k === i ? { ...s, lessons: [...s.lessons, { title: '', content: '' }] } : s)),
                          )
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
            </>
          )}

          <Field
            label="Media"
            error={errorFor(errors, 'media') || uploads.error || undefined}
            hint="Images, videos and PDFs; several at once."
          >
            {(id) => (
              <input
                id={id}
                type="file"
                multiple
                accept="image/*,video/*,application/pdf"
                disabled={uploading}
                onChange={(e) => {
                  void uploads.upload(e.target.files, 'public');
                  e.target.value = '';
                }}
                className="mt-1 block text-sm"
              />
            )}
          </Field>
          {uploads.progress && <UploadProgress progress={uploads.progress} onCancel={uploads.cancel} />}
          <p role="status" className="text-sm text-slate-600 empty:hidden">
            {uploads.note}
          </p>
          {draft.media.length > 0 && (
            <ul aria-label="Uploaded media" className="space-y-2">
              {draft.media.map((m, i) => (
                <li key={`${m.url}-${i}`} className="flex items-center justify-between gap-3 rounded-lg px-3 py-2 ring-1 ring-slate-200">
                  <span className="truncate text-sm text-slate-700">
                    {m.alt ?? m.url} ({m.type})
                  </span>
                  <button
                    type="button"
                    className={SMALL}
                    onClick={() =>
                      set(
                        'media',
                        draft.media.filter((_, k) => k !== i),
                      )
                    }
                  >
                    Remove {m.alt ?? `media ${i + 1}`}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}

      <div className="flex flex-wrap gap-3 border-t border-slate-200 pt-6">
        <button type="submit" className={PRIMARY} disabled={submitting || uploading}>
          {submitting ? (
            <span className="inline-flex items-center gap-2">
              <Spinner /> {editing ? 'Saving...' : 'Creating...'}
            </span>
          ) : editing ? (
            'Save Changes'
          ) : (
            'Create'
          )}
        </button>
        <button
          type="button"
          className={SECONDARY}
          onClick={() => (window.history.length > 1 ? window.history.back() : window.location.assign('/'))}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
