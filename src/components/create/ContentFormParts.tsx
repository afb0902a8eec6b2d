/**
 * The create form's parts (ContentForm.tsx): the Manual Entry / AI Generation tabs; the AI tab (the
 * prompt, Generate and the draft it made); the manual tab (the common fields, the type's own fields
 * where the type places them, and the media uploads); and the submit and Cancel buttons.
 */
import type { ContentType } from '#shared/content/registry.ts';
import { takesBody, type ContentDraft } from '#shared/create-form.ts';
import { AccessLevelSelect } from '../forms/AccessLevelSelect.tsx';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import { errorFor, Field, SMALL, textInput, type TypeFieldsProps } from './fields/form-parts.tsx';
import { TYPE_FIELDS } from './fields/index.ts';
import { UploadProgress } from './UploadProgress.tsx';
import type { AiDraft } from './use-ai-draft.ts';

const BUTTON = 'min-h-11 rounded-lg px-5 py-2.5 text-sm font-semibold disabled:opacity-60';
const PRIMARY = `${BUTTON} bg-brand-600 text-white hover:bg-brand-700`;
const SECONDARY = `${BUTTON} text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50`;

const Spinner = () => (
  <span aria-hidden="true" className="inline-block h-4 w-4 animate-spin rounded-full border-2 border-white/40 border-t-white" />
);

export type Mode = 'manual' | 'ai';

/** How to write it: Manual Entry or AI Generation. */
export function ModeTabs({ ids, mode, onMode }: { ids: string; mode: Mode; onMode: (mode: Mode) => void }) {
  return (
    <div role="tablist" aria-label="How to write it" className="inline-flex rounded-lg bg-slate-100 p-1">
      {(['manual', 'ai'] as const).map((m) => (
        <button
          key={m}
          type="button"
          role="tab"
          id={`${ids}-${m}`}
          aria-selected={mode === m}
          aria-controls={`${ids}-${m}-panel`}
          onClick={() => onMode(m)}
          className={`rounded-md px-4 py-2 text-sm font-semibold ${mode === m ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600'}`}
        >
          {m === 'manual' ? 'Manual Entry' : 'AI Generation'}
        </button>
      ))}
    </div>
  );
}

type AiPanelProps = { ids: string; type: ContentType; draft: ContentDraft; ai: AiDraft; onEdit: () => void };

/** What the draft should be about, Generate, and the draft it made (to edit in the manual tab). */
export function AiPanel({ ids, type, draft, ai, onEdit }: AiPanelProps) {
  return (
    <div role="tabpanel" id={`${ids}-ai-panel`} aria-labelledby={`${ids}-ai`} className="space-y-4">
      <Field label="What should it be about?" hint="The draft fills the form; you can edit everything before creating.">
        {(id) => <textarea id={id} rows={4} className={INPUT_CLASS} value={ai.prompt} onChange={(e) => ai.setPrompt(e.target.value)} />}
      </Field>
      <button type="button" className={PRIMARY} disabled={ai.generating || !ai.prompt.trim()} onClick={() => void ai.generate()}>
        {ai.generating ? (
          <span className="inline-flex items-center gap-2">
            <Spinner /> Generating...
          </span>
        ) : (
          'Generate'
        )}
      </button>
      {ai.error && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          {ai.error}
        </p>
      )}
      {ai.generated && (
        <section aria-label="Generated content" className="space-y-3 rounded-2xl bg-slate-50 p-6 ring-1 ring-slate-200">
          <h2 className="text-xl font-bold text-slate-900">{draft.title}</h2>
          <p className="text-slate-700">{draft.description}</p>
          {takesBody(type) && <div className="max-h-64 overflow-auto whitespace-pre-wrap text-sm text-slate-700">{draft.content}</div>}
          <p className="text-sm text-slate-600">Tags: {draft.tags}</p>
          <button type="button" className={SECONDARY} onClick={onEdit}>
            Edit Generated Content
          </button>
        </section>
      )}
    </div>
  );
}

/** The common fields, the type's own fields where the type places them, and the media. */
export function ManualPanel({ ids, type, fieldsProps }: { ids: string; type: ContentType; fieldsProps: TypeFieldsProps }) {
  const { draft, set, errors } = fieldsProps;
  const { Fields, place } = TYPE_FIELDS[type];
  return (
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

      <MediaUploads {...fieldsProps} />
    </div>
  );
}

/** Media uploads (images, videos, PDFs), their progress, and the uploaded ones to remove. */
function MediaUploads({ draft, set, errors, uploads }: TypeFieldsProps) {
  return (
    <>
      <Field label="Media" error={errorFor(errors, 'media') || uploads.error || undefined} hint="Images, videos and PDFs; several at once.">
        {(id) => (
          <input
            id={id}
            type="file"
            multiple
            accept="image/*,video/*,application/pdf"
            disabled={uploads.uploading}
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
    </>
  );
}

type FormButtonsProps = { editing: boolean; submitting: boolean; uploading: boolean };

/** Create (or Save Changes), busy while sending or uploading, and Cancel (back). */
export function FormButtons({ editing, submitting, uploading }: FormButtonsProps) {
  return (
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
  );
}
