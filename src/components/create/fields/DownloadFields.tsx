/**
 * The download file of a type that has one (tools, market items): a private file key or https link,
 * an upload to the protected area that fills it, and the optional outside link.
 */
import { errorFor, Field, textInput, type TypeFieldsProps } from './form-parts.tsx';

export function DownloadFields(props: TypeFieldsProps) {
  const { errors, uploads } = props;
  return (
    <>
      <Field label="Download file" error={errorFor(errors, 'downloadUrl')} hint="A private file key (upload below) or an https:// link.">
        {textInput(props, 'downloadUrl')}
      </Field>
      <Field label="Upload the download file">
        {(id) => (
          <input
            id={id}
            type="file"
            disabled={uploads.uploading}
            onChange={(e) => {
              void uploads.upload(e.target.files, 'protected');
              e.target.value = '';
            }}
            className="mt-1 block text-sm"
          />
        )}
      </Field>
      <Field label="External link" error={errorFor(errors, 'externalLink')}>
        {textInput(props, 'externalLink')}
      </Field>
    </>
  );
}
