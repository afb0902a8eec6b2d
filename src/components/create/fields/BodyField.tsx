/**
 * The Markdown body editor: a blog post's content in the create form, and a newsletter issue's body
 * in the admin dashboard, with the form's label, hint and error beside it.
 */
import { INPUT_CLASS } from '../../forms/TextField.tsx';
import { Field } from './form-parts.tsx';

export function BodyField({
  label,
  value,
  onChange,
  error,
  hint,
  disabled = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  hint: string;
  disabled?: boolean;
}) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(id, describedBy) => (
        <textarea
          id={id}
          rows={12}
          className={INPUT_CLASS}
          value={value}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={describedBy ? true : undefined}
          aria-describedby={describedBy}
        />
      )}
    </Field>
  );
}
