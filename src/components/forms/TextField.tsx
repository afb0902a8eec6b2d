/** A labelled text input as the islands' forms draw it, and the shared input and submit styles. */
import { useId, type InputHTMLAttributes, type Ref } from 'react';

export const INPUT_CLASS =
  'mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30';
export const SUBMIT_CLASS =
  'min-h-11 w-full rounded-lg bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700 disabled:opacity-60';

export function TextField({
  label,
  note,
  inputRef,
  className,
  ...input
}: { label: string; note?: string; inputRef?: Ref<HTMLInputElement> } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input id={id} ref={inputRef} className={`${INPUT_CLASS} ${className ?? ''}`} {...input} />
      {note && <p className="mt-1 text-sm text-slate-500">{note}</p>}
    </div>
  );
}
