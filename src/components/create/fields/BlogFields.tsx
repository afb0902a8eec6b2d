/** A blog post's own field in the create form: its body in Markdown (sent as `content`). */
import { BodyField } from './BodyField.tsx';
import { errorFor, type TypeFieldsProps } from './form-parts.tsx';

export function BlogFields({ draft, set, errors }: TypeFieldsProps) {
  return (
    <BodyField
      label="Content"
      hint="Markdown."
      value={draft.content}
      onChange={(value) => set('content', value)}
      error={errorFor(errors, 'content')}
    />
  );
}
