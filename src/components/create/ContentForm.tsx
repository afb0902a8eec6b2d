/**
 * The creation form for one content type (spec points 2, 3, 5 and 8): Manual Entry and AI
 * Generation sub-tabs; title, description, tags as comma-separated text, access level (default
 * free), media uploads (image, video, PDF; several at once; removed by index), and the type's own
 * fields (fields/: a blog's body, a course's sections and lessons, a tool's or market item's file,
 * link, price and file type), chosen by type in fields/index.ts. Checked with the server's schema
 * before sending; the submit button is disabled with a spinner while sending; success toasts
 * '{Type} created' and goes to the list, failure toasts the spec's text and shows the server's
 * field errors. Cancel goes back. A field's error goes as soon as the field is valid
 * (`standingErrors`); uploads show their progress and can be cancelled (`useUploads`).
 * Longer than the house's file size: the form's frame is one React state machine (draft, uploads,
 * AI drafting, submit) and reads best whole; each type's fields live in fields/.
 */
import { useId, useMemo, useState } from 'react';
import type { ContentType } from '#shared/content/registry.ts';
import { createItem, generateDraft, updateItem } from '../../lib/browser/create.ts';
import {
  buildPayload,
  changePayload,
  createdToast,
  createFailedText,
  draftErrors,
  EMPTY_DRAFT,
  listRoute,
  newDraft,
  standingErrors,
  takesBody,
  type ContentDraft,
  updatedToast,
  withGenerated,
} from '#shared/create-form.ts';
import { toast } from '../../lib/browser/toast.ts';
import { AccessLevelSelect } from '../forms/AccessLevelSelect.tsx';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import { errorFor, Field, SMALL, textInput, type Errors, type TypeFieldsProps } from './fields/form-parts.tsx';
import { TYPE_FIELDS } from './fields/index.ts';
import { UploadProgress } from './UploadProgress.tsx';
import { useUploads, type Uploaded } from './use-uploads.ts';

const BUTTON = 'min-h-11 rounded-lg px-5 py-2.5 text-sm font-semibold disabled:opacity-60';
const PRIMARY = `${BUTTON} bg-brand-600 text-white hover:bg-brand-700`;
const SECONDARY = `${BUTTON} text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50`;

const Spinner = () => (
  <span aria-hidden="true" className="inline-block h-4 w-4 animate-spin rounded-full border-2 border-white/40 border-t-white" />
);

/** An existing database item being edited: its id and the form filled from it. */
export interface Editing {
  id: string;
  /** Unpublished items have no public page: saving one returns to the admin dashboard. */
  published: boolean;
  initial: ContentDraft;
}

export function ContentForm({ type, editing }: { type: ContentType; editing?: Editing | undefined }) {
  const [draft, setDraft] = useState<ContentDraft>(() => editing?.initial ?? newDraft());
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
    setDraft((d) => withGenerated(type, d, result.data.content));
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
    const result = editing ? await updateItem(type, editing.id, changePayload(type, payload)) : await createItem(type, payload);
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

  const { Fields, place } = TYPE_FIELDS[type];
  const fieldsProps: TypeFieldsProps = { draft, set, update: setDraft, errors, uploads };

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
              {takesBody(type) && <div className="max-h-64 overflow-auto whitespace-pre-wrap text-sm text-slate-700">{draft.content}</div>}
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
            {textInput(fieldsProps, 'title')}
          </Field>
          <Field label="Description" error={errorFor(errors, 'description')}>
            {textInput(fieldsProps, 'description')}
          </Field>
          {place === 'after-description' && <Fields {...fieldsProps} />}
          <Field label="Tags" error={errorFor(errors, 'tags')} hint="Separate tags with commas.">
            {textInput(fieldsProps, 'tags')}
          </Field>
          <Field label="Access Level" error={errorFor(errors, 'accessLevel')}>
            {(id) => <AccessLevelSelect id={id} value={draft.accessLevel} onChange={(level) => set('accessLevel', level)} />}
          </Field>
          {place === 'after-access-level' && <Fields {...fieldsProps} />}

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
