/**
 * An issue's fields: subject, preview text, the body in the create form's Markdown editor, access
 * level and the audience checkboxes, each with the server's error for it beside it.
 */
import { useId } from 'react';
import { MARKDOWN_PREVIEW_LINE } from '#shared/content/markdown.ts';
import { ISSUE_LIMITS } from '#shared/newsletter.ts';
import { AccessLevelSelect } from '../forms/AccessLevelSelect.tsx';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import { BodyField } from '../create/fields/BodyField.tsx';
import { errorFor, Field, type Errors } from '../create/fields/form-parts.tsx';
import type { Audience, IssueInput } from './newsletter-api.ts';
import { AUDIENCE_OPTIONS, recipientsText } from './newsletter-format.ts';
import { useAudienceReach, type ReachState } from './use-audience-reach.ts';
import { useSegmentAudiences } from './use-segment-audiences.ts';

const BODY_HINT = `Markdown. A line ${MARKDOWN_PREVIEW_LINE} ends the public part: readers below the access level get the text above it and an upgrade link.`;

export interface NewsletterFieldsProps {
  form: IssueInput;
  errors: Errors;
  set: <K extends keyof IssueInput>(key: K, value: IssueInput[K]) => void;
  disabled: boolean;
}

/** A one-line input bound to a text field of the issue, as a Field's child. */
const line =
  ({ form, set }: NewsletterFieldsProps, key: 'subject' | 'previewText', maxLength: number) =>
  (id: string, describedBy?: string) => (
    <input
      id={id}
      className={INPUT_CLASS}
      value={form[key]}
      maxLength={maxLength}
      onChange={(e) => set(key, e.target.value)}
      aria-invalid={describedBy ? true : undefined}
      aria-describedby={describedBy}
    />
  );

/** Why an audience reaches nobody, where the reason is known. */
const EMPTY_REASON: Partial<Record<Audience, string>> = {
  free: 'Free members get the newsletter only once they turn it on in their account settings.',
};

/** The editor's choice in numbers: who it would reach now, and any chosen audience that reaches nobody. */
function ReachSummary({ state, selected }: { state: ReachState; selected: readonly Audience[] }) {
  if (state.status !== 'ready')
    return (
      <p role="status" className="mt-2 text-sm text-slate-600">
        {state.status === 'error' ? 'The recipient counts could not be loaded.' : 'Counting recipients...'}
      </p>
    );
  const { recipients, selected: total } = state.reach;
  const empty = AUDIENCE_OPTIONS.filter((o) => selected.includes(o.id) && recipients[o.id] === 0);
  return (
    <div role="status" className="mt-2 space-y-1 text-sm">
      <p data-testid="audience-total" className={total === 0 && selected.length ? 'font-medium text-red-700' : 'text-slate-700'}>
        {total === 0 ? 'Nobody would receive this issue now.' : `This issue would go to ${recipientsText(total)} now.`}
      </p>
      {empty.map((o) => (
        <p key={o.id} className="text-amber-800">
          {o.label} reach nobody now.{EMPTY_REASON[o.id] ? ` ${EMPTY_REASON[o.id]}` : ''}
        </p>
      ))}
    </div>
  );
}

export function NewsletterFields(props: NewsletterFieldsProps) {
  const { form, errors, set, disabled } = props;
  const ids = useId();
  // Counted for an issue that can still be sent; one that went out has its own account.
  const reach = useAudienceReach(form.audience, !disabled);
  const audienceError = errorFor(errors, 'audience');
  // Kept in the form's order, so the same choice always reads the same.
  const segments = useSegmentAudiences(!disabled);
  const options: readonly { id: Audience; label: string }[] = [...AUDIENCE_OPTIONS, ...segments];
  const toggle = (id: Audience, on: boolean) =>
    set(
      'audience',
      on ? options.map((o) => o.id).filter((a) => a === id || form.audience.includes(a)) : form.audience.filter((a) => a !== id),
    );

  return (
    <fieldset disabled={disabled} className="space-y-5">
      <Field label="Subject" error={errorFor(errors, 'subject')}>
        {line(props, 'subject', ISSUE_LIMITS.subject)}
      </Field>
      <Field label="Preview text" error={errorFor(errors, 'previewText')} hint="Shown by inboxes next to the subject. Optional.">
        {line(props, 'previewText', ISSUE_LIMITS.previewText)}
      </Field>
      <BodyField
        label="Body"
        hint={BODY_HINT}
        value={form.body}
        onChange={(value) => set('body', value)}
        error={errorFor(errors, 'body')}
        disabled={disabled}
      />
      <Field label="Access Level" error={errorFor(errors, 'accessLevel')} hint="Readers at this level or above get the whole issue.">
        {(id) => <AccessLevelSelect id={id} value={form.accessLevel} onChange={(level) => set('accessLevel', level)} />}
      </Field>
      <fieldset aria-describedby={audienceError ? `${ids}-audience-error` : undefined}>
        <legend className="text-sm font-medium text-slate-700">Audience</legend>
        <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
          {options.map((option) => (
            <div key={option.id} className="inline-flex items-center gap-2 text-sm">
              <label className="inline-flex items-center gap-2 text-slate-700">
                <input
                  type="checkbox"
                  checked={form.audience.includes(option.id)}
                  onChange={(e) => toggle(option.id, e.target.checked)}
                  aria-describedby={disabled ? undefined : `${ids}-reach-${option.id}`}
                  className="h-4 w-4 rounded border-slate-300"
                />
                {option.label}
              </label>
              {!disabled && (
                <span id={`${ids}-reach-${option.id}`} data-testid={`reach-${option.id}`} className="text-slate-500">
                  {reach.status === 'ready' && option.id in reach.reach.recipients
                    ? `(${recipientsText(reach.reach.recipients[option.id as keyof typeof reach.reach.recipients])})`
                    : ''}
                </span>
              )}
            </div>
          ))}
        </div>
        {!disabled && <ReachSummary state={reach} selected={form.audience} />}
        {audienceError && (
          <p id={`${ids}-audience-error`} className="mt-1 text-sm text-red-700">
            {audienceError}
          </p>
        )}
      </fieldset>
    </fieldset>
  );
}
