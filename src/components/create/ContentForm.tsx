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
 * The form's frame is one React state machine (draft, uploads, AI drafting, submit); its tabs and
 * buttons are in ContentFormParts.tsx, AI drafting in use-ai-draft.ts, each type's fields in fields/.
 */
import { useId, useMemo, useState } from 'react';
import type { ContentType } from '#shared/content/registry.ts';
import { createItem, updateItem } from '../../lib/browser/create.ts';
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
  type ContentDraft,
  updatedToast,
} from '#shared/create-form.ts';
import { toast } from '../../lib/browser/toast.ts';
import { AiPanel, FormButtons, ManualPanel, ModeTabs, type Mode } from './ContentFormParts.tsx';
import type { Errors, TypeFieldsProps } from './fields/form-parts.tsx';
import { useAiDraft } from './use-ai-draft.ts';
import { useUploads, type Uploaded } from './use-uploads.ts';

/** An existing database item being edited: its id and the form filled from it. */
export interface Editing {
  id: string;
  /** Unpublished items have no public page: saving one returns to the admin dashboard. */
  published: boolean;
  initial: ContentDraft;
}

export function ContentForm({ type, editing }: { type: ContentType; editing?: Editing | undefined }) {
  const [draft, setDraft] = useState<ContentDraft>(() => editing?.initial ?? newDraft());
  const [mode, setMode] = useState<Mode>('manual');
  // The errors of the last check and the draft they were found in; a field's error stands only while it still fails.
  const [checked, setChecked] = useState<{ errors: Errors; draft: ContentDraft }>({ errors: {}, draft: EMPTY_DRAFT });
  const errors = useMemo(() => standingErrors(type, checked.errors, checked.draft, draft), [type, checked, draft]);
  const [submitting, setSubmitting] = useState(false);
  const ids = useId();

  const ai = useAiDraft(type, setDraft);

  const set = <K extends keyof ContentDraft>(key: K, value: ContentDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));

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
      <ModeTabs ids={ids} mode={mode} onMode={setMode} />

      {mode === 'ai' ? (
        <AiPanel ids={ids} type={type} draft={draft} ai={ai} onEdit={() => setMode('manual')} />
      ) : (
        <ManualPanel ids={ids} type={type} fieldsProps={fieldsProps} />
      )}

      <FormButtons editing={Boolean(editing)} submitting={submitting} uploading={uploading} />
    </form>
  );
}
