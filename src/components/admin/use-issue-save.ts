/**
 * The Newsletter editor's save (NewsletterEditor.tsx): unsaved changes saved once at a time, the
 * draft created the first time, the server's field errors handed back. Previews, test sends,
 * sending and scheduling all call it first. Browser only.
 */
import { useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { toast } from '../../lib/browser/toast.ts';
import type { Errors } from '../create/fields/form-parts.tsx';
import { createIssue, failureText, getIssue, updateIssue, type Issue, type IssueInput } from './newsletter-api.ts';

/** The form's fields of a saved issue. */
export const inputOf = (issue: Issue): IssueInput => ({
  subject: issue.subject,
  previewText: issue.previewText,
  body: issue.body,
  accessLevel: issue.accessLevel,
  audience: issue.audience,
});
/** The same issue as the server keeps it (it trims the texts). */
const same = (a: IssueInput, b: IssueInput) =>
  a.subject.trim() === b.subject.trim() &&
  a.previewText.trim() === b.previewText.trim() &&
  a.body.trim() === b.body.trim() &&
  a.accessLevel === b.accessLevel &&
  a.audience.join() === b.audience.join();

/** The server's field errors, first message each. */
const firstMessages = (fields: Record<string, string[]>): Errors =>
  Object.fromEntries(Object.entries(fields).map(([key, messages]) => [key, messages[0] ?? 'Not valid']));

export interface IssueSaveOptions {
  /** The issue as last loaded or saved (null: not created yet). */
  issue: Issue | null;
  form: IssueInput;
  setIssue: Dispatch<SetStateAction<Issue | null>>;
  setErrors: Dispatch<SetStateAction<Errors>>;
}

/** `save()` answers the saved issue, or null when it could not be saved; `saving` while a save is under way. */
export function useIssueSave({ issue, form, setIssue, setErrors }: IssueSaveOptions) {
  const [saving, setSaving] = useState(false);
  // The newest saved issue and form, for a save that starts while another is under way (a click on
  // Preview, then on Send test): one save at a time, so a new issue is created once.
  const savedIssue = useRef<Issue | null>(null);
  const latestForm = useRef(form);
  useEffect(() => {
    latestForm.current = form;
  }, [form]);
  useEffect(() => {
    if (issue) savedIssue.current = issue;
  }, [issue]);
  const inFlight = useRef<Promise<Issue | null> | null>(null);

  async function saveOnce(): Promise<Issue | null> {
    const current = savedIssue.current;
    const input = latestForm.current;
    if (current && same(input, inputOf(current))) return current;
    setSaving(true);
    const result = current
      ? await updateIssue(current.id, input)
      : await createIssue(input).then(async (created) => (created.ok ? getIssue(created.data.id) : created));
    setSaving(false);
    if (result.ok) {
      savedIssue.current = result.data.issue;
      setIssue(result.data.issue);
      setErrors({});
      return result.data.issue;
    }
    if (result.kind === 'error' && result.fields) setErrors(firstMessages(result.fields));
    toast({ title: 'Error', description: failureText(result, 'The issue could not be saved. Please try again.'), variant: 'destructive' });
    return null;
  }

  /** Saves unsaved changes (creating the draft the first time); answers the saved issue, or null when it could not be saved. */
  function save(): Promise<Issue | null> {
    inFlight.current ??= saveOnce().finally(() => (inFlight.current = null));
    return inFlight.current;
  }

  return { save, saving };
}
