/**
 * One newsletter issue in the Newsletter tab: subject, preview text, the body in the create form's
 * Markdown editor, access level and audience, or a published article as the start; the server's
 * field errors beside the fields (each goes when its field changes). Previews, test sends, sending
 * and scheduling act on the saved issue, so they save unsaved changes first. An issue that is
 * sending or sent is shown read-only.
 */
import { useEffect, useId, useState } from 'react';
import { toast } from '../../lib/browser/toast.ts';
import type { Errors } from '../create/fields/form-parts.tsx';
import { deleteIssue, failureText, getIssue, type Issue, type IssueInput, type IssueSummary } from './newsletter-api.ts';
import { isEditable, STATUS_BADGE, STATUS_LABEL, STATUS_NOTE } from './newsletter-format.ts';
import { NewsletterActions } from './NewsletterActions.tsx';
import { NewsletterArticlePicker } from './NewsletterArticlePicker.tsx';
import { NewsletterFields } from './NewsletterFields.tsx';
import { NewsletterPreview } from './NewsletterPreview.tsx';
import { inputOf, useIssueSave } from './use-issue-save.ts';

const BUTTON = 'min-h-11 rounded-lg px-5 py-2.5 text-sm font-semibold disabled:opacity-60';
const EMPTY: IssueInput = {
  subject: '',
  previewText: '',
  body: '',
  accessLevel: 'subscriber',
  audience: ['newsletter', 'subscriber', 'premium'],
};

export function NewsletterEditor({ issueId, onClose }: { issueId: string | null; onClose: () => void }) {
  const [issue, setIssue] = useState<Issue | null>(null);
  const [loadError, setLoadError] = useState('');
  const [form, setForm] = useState<IssueInput>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const ids = useId();

  useEffect(() => {
    if (!issueId) return;
    const controller = new AbortController();
    getIssue(issueId, controller.signal)
      .then((result) => {
        if (!result.ok) return setLoadError(failureText(result, 'The issue could not be loaded.'));
        setIssue(result.data.issue);
        setForm(inputOf(result.data.issue));
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [issueId]);

  const editable = !issue || isEditable(issue.status);

  const set = <K extends keyof IssueInput>(key: K, value: IssueInput[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== key && !k.startsWith(`${key}.`))));
  };

  const { save, saving } = useIssueSave({ issue, form, setIssue, setErrors });

  async function remove() {
    if (!issue || !window.confirm(`Delete the draft "${issue.subject}"? This cannot be undone.`)) return;
    const result = await deleteIssue(issue.id);
    if (result.ok || result.kind === 'not-found') {
      toast({ title: 'Deleted', description: `"${issue.subject}" has been deleted.` });
      onClose();
    } else toast({ title: 'Error', description: failureText(result, 'The draft could not be deleted.'), variant: 'destructive' });
  }

  const fromArticle = (article: Omit<IssueInput, 'audience'>) => {
    setForm((f) => ({ ...f, ...article }));
    setErrors({});
  };
  const changed = (summary: IssueSummary) => setIssue((i) => (i ? { ...i, ...summary } : i));

  if (loadError)
    return (
      <div className="space-y-4">
        <p role="alert" className="text-red-700">
          {loadError}
        </p>
        <button type="button" onClick={onClose} className={`${BUTTON} text-brand-700 ring-1 ring-inset ring-brand-200`}>
          Back to issues
        </button>
      </div>
    );
  if (issueId && !issue)
    return (
      <p role="status" className="text-slate-600">
        Loading issue...
      </p>
    );

  return (
    <section aria-labelledby={`${ids}-title`} className="space-y-6">
      <EditorHeader ids={ids} issue={issue} onClose={onClose} />
      {!editable && <p className="text-sm text-slate-600">This issue has gone out and can no longer be changed.</p>}
      {issue && STATUS_NOTE[issue.status] && <p className="text-sm text-red-700">{STATUS_NOTE[issue.status]}</p>}
      {editable && <NewsletterArticlePicker hasText={Boolean(form.subject || form.body)} onPick={fromArticle} />}

      <form
        noValidate
        aria-label="Newsletter issue"
        className="space-y-5"
        onSubmit={(e) => {
          e.preventDefault();
          void save().then((saved) => saved && toast({ title: 'Saved', description: `"${saved.subject}" has been saved.` }));
        }}
      >
        <NewsletterFields form={form} errors={errors} set={set} disabled={!editable} />
        {editable && <FormButtons issue={issue} saving={saving} onRemove={() => void remove()} />}
      </form>

      <NewsletterPreview save={save} />
      <NewsletterActions issue={issue} save={save} onChange={changed} onSent={onClose} />
    </section>
  );
}

/** The way back to the list, the editor's title and the issue's status. */
function EditorHeader({ ids, issue, onClose }: { ids: string; issue: Issue | null; onClose: () => void }) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button type="button" onClick={onClose} className="text-sm font-semibold text-brand-700 hover:underline">
        ← Back to issues
      </button>
      <h2 id={`${ids}-title`} className="text-2xl font-bold text-slate-900">
        {issue ? 'Edit issue' : 'New issue'}
      </h2>
      {issue && (
        <span data-testid="issue-status" className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_BADGE[issue.status]}`}>
          {STATUS_LABEL[issue.status]}
        </span>
      )}
    </div>
  );
}

/** Save (draft or changes) and, for a draft or a failed issue, Delete draft. */
function FormButtons({ issue, saving, onRemove }: { issue: Issue | null; saving: boolean; onRemove: () => void }) {
  return (
    <div className="flex flex-wrap gap-3">
      <button type="submit" disabled={saving} className={`${BUTTON} bg-brand-600 text-white hover:bg-brand-700`}>
        {saving ? 'Saving...' : issue?.status === 'scheduled' ? 'Save changes' : 'Save draft'}
      </button>
      {(issue?.status === 'draft' || issue?.status === 'failed') && (
        <button type="button" onClick={onRemove} className={`${BUTTON} text-red-700 ring-1 ring-inset ring-red-200 hover:bg-red-50`}>
          Delete draft
        </button>
      )}
    </div>
  );
}
