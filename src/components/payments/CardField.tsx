/** One labelled card input of the test checkout, with its error tied to it (aria-invalid, aria-describedby). */
import { useId, type InputHTMLAttributes, type Ref } from 'react';
import { INPUT_CLASS } from '../forms/TextField.tsx';

export function CardField({
  label,
  hint,
  error,
  inputRef,
  ...input
}: { label: string; hint?: string; error: string | undefined; inputRef?: Ref<HTMLInputElement> } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        ref={inputRef}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        className={`${INPUT_CLASS} font-mono ${error ? 'border-red-500' : ''}`}
        {...input}
      />
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
