/** A tool's own fields in the create form: its download file and outside link. */
import { DownloadFields } from './DownloadFields.tsx';
import type { TypeFieldsProps } from './form-parts.tsx';

export function ToolFields(props: TypeFieldsProps) {
  return <DownloadFields {...props} />;
}
