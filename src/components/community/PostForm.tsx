/**
 * The one form members write with: a new thread (title and text), a reply, a comment, an edit.
 * Markdown in a plain textarea (the server renders and sanitises it once, on write); the limits
 * mirror the server's, whose field errors and refusals (suspended, too fast, locked) show under the
 * form as it words them. The parent decides what a successful send does.
 */
import { useId, useState, type FormEvent } from 'react';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import type { SendResult } from './community-api.ts';
import { COMMUNITY_LIMITS } from './limits.ts';

export interface PostFormProps {
  /** The text box's label ("Your reply", "Comment", …). */
  label: string;
  submitLabel: string;
  /** With a title field (a new thread). */
  withTitle?: boolean;
  initialBody?: string;
  /** Sends the text; a failure keeps it in the form with the server's message. */
  onSend: (text: { title: string; body: string }) => Promise<SendResult>;
  onCancel?: () => void;
  /** Focus the first field at once (a form opened by a click). */
  autoFocus?: boolean;
}

const BUTTON =
  'min-h-11 rounded-lg bg-brand-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60';
const SECONDARY = 'min-h-11 rounded-lg px-4 py-2.5 text-sm font-semibold text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50';

export function PostForm({ label, submitLabel, withTitle, initialBody = '', onSend, onCancel, autoFocus }: PostFormProps) {
  const id = useId();
  const [title, setTitle] = useState('');
  const [body, setBody] = useState(initialBody);
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<{ message: string; fields: Record<string, string[]> } | null>(null);
  const empty = !body.trim() || (withTitle === true && !title.trim());
  const titleError = problem?.fields.title?.[0];
  const bodyError = problem?.fields.body?.[0];

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (empty || sending) return;
    setSending(true);
    setProblem(null);
    const result = await onSend({ title: title.trim(), body });
    setSending(false);
    if (result.ok) {
      setTitle('');
      setBody('');
    } else setProblem({ message: result.message, fields: result.fields ?? {} });
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-label={submitLabel} noValidate>
      {withTitle && <TitleField id={id} title={title} error={titleError} autoFocus={autoFocus} onTitle={setTitle} />}
      <BodyField id={id} label={label} body={body} error={bodyError} autoFocus={autoFocus && !withTitle} onBody={setBody} />
      {problem && !titleError && !bodyError && (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          {problem.message}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={BUTTON} disabled={empty || sending}>
          {sending ? 'Sending…' : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className={SECONDARY} onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

type TitleFieldProps = { id: string; title: string; error?: string; autoFocus?: boolean; onTitle: (title: string) => void };

/** A new thread's title, with the server's complaint about it. */
function TitleField({ id, title, error, autoFocus, onTitle }: TitleFieldProps) {
  return (
    <div>
      <label htmlFor={`${id}-title`} className="block text-sm font-medium text-slate-700">
        Title
      </label>
      <input
        id={`${id}-title`}
        className={INPUT_CLASS}
        value={title}
        maxLength={COMMUNITY_LIMITS.title}
        autoFocus={autoFocus}
        onChange={(e) => onTitle(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-title-error` : undefined}
        required
      />
      {error && (
        <p id={`${id}-title-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

type BodyFieldProps = { id: string; label: string; body: string; error?: string; autoFocus?: boolean; onBody: (body: string) => void };

/** The Markdown text, what Markdown does here, and the server's complaint about it. */
function BodyField({ id, label, body, error, autoFocus, onBody }: BodyFieldProps) {
  return (
    <div>
      <label htmlFor={`${id}-body`} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        id={`${id}-body`}
        className={`${INPUT_CLASS} min-h-32 font-[inherit]`}
        value={body}
        rows={5}
        maxLength={COMMUNITY_LIMITS.body}
        autoFocus={autoFocus}
        onChange={(e) => onBody(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-body-error` : ''}`}
        required
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
        Markdown works: **bold**, _italic_, [a link](https://example.com), lists, quotes and `code`. No HTML or images.
      </p>
      {error && (
        <p id={`${id}-body-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
