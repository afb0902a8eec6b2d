/** A blog post's own field in the create form: its body in Markdown (sent as `content`). */
import { INPUT_CLASS } from '../../forms/TextField.tsx';
import { errorFor, Field, type TypeFieldsProps } from './form-parts.tsx';

export function BlogFields({ draft, set, errors }: TypeFieldsProps) {
  return (
    <Field label="Content" error={errorFor(errors, 'content')} hint="Markdown.">
      {(id, describedBy) => (
        <textarea
          id={id}
          rows={12}
          className={INPUT_CLASS}
          value={draft.content}
          onChange={(e) => set('content', e.target.value)}
          aria-invalid={describedBy ? true : undefined}
          aria-describedby={describedBy}
        />
      )}
    </Field>
  );
}
