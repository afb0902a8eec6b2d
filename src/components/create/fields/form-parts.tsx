/**
 * The create form's building blocks, shared by the form and each type's fields: a labelled field
 * with its hint and error, a text input bound to a draft field, the price field (every type that
 * lists `price`), the small button style, and what a type's fields component receives.
 */
import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import type { ContentDraft } from '#shared/create-form.ts';
import { INPUT_CLASS } from '../../forms/TextField.tsx';
import type { useUploads } from '../use-uploads.ts';

export const SMALL = 'rounded-md px-2.5 py-1 text-sm font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50';

/** Field (or path: sections.0.title) → its first problem. */
export type Errors = Record<string, string>;

/** The first error for a field or anything inside it (tags.2 → tags). */
export const errorFor = (errors: Errors, field: string) =>
  errors[field] ?? Object.entries(errors).find(([key]) => key.startsWith(`${field}.`))?.[1];

export function Field({
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

/** The draft and how to change it: what the form hands every part of itself. */
export interface DraftBinding {
  draft: ContentDraft;
  set: <K extends keyof ContentDraft>(key: K, value: ContentDraft[K]) => void;
}

/** What a type's fields component receives: the draft, the standing errors, and the form's uploads. */
export interface TypeFieldsProps extends DraftBinding {
  update: (change: (draft: ContentDraft) => ContentDraft) => void;
  errors: Errors;
  uploads: ReturnType<typeof useUploads>;
}

type TextKey =
  | 'title'
  | 'description'
  | 'tags'
  | 'downloadUrl'
  | 'externalLink'
  | 'price'
  | 'fileType'
  | 'duration'
  | 'startsAt'
  | 'timeZone'
  | 'durationMinutes'
  | 'host'
  | 'joinUrl'
  | 'address'
  | 'capacity'
  | 'recordingUrl';

/** A one-line input bound to a text field of the draft, as a Field's child. */
export function textInput({ draft, set }: DraftBinding, key: TextKey, extra?: InputHTMLAttributes<HTMLInputElement>) {
  return (id: string, describedBy?: string) => (
    <input
      id={id}
      className={INPUT_CLASS}
      value={draft[key]}
      onChange={(e) => set(key, e.target.value)}
      aria-invalid={describedBy ? true : undefined}
      aria-describedby={describedBy}
      {...extra}
    />
  );
}

/** The one-time price in dollars (market items and courses). */
export function PriceField(props: TypeFieldsProps) {
  return (
    <Field label="Price (USD)" error={errorFor(props.errors, 'price')} hint="Empty or 0: free.">
      {textInput(props, 'price', { inputMode: 'decimal' })}
    </Field>
  );
}
