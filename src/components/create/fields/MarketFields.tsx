/** A market item's own fields in the create form: its download file and link, its price and its file type. */
import { DownloadFields } from './DownloadFields.tsx';
import { errorFor, Field, PriceField, textInput, type TypeFieldsProps } from './form-parts.tsx';

export function MarketFields(props: TypeFieldsProps) {
  return (
    <>
      <DownloadFields {...props} />
      <PriceField {...props} />
      <Field label="File type" error={errorFor(props.errors, 'fileType')} hint="For example PDF or Figma file.">
        {textInput(props, 'fileType')}
      </Field>
    </>
  );
}
