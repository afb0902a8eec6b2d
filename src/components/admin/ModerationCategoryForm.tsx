/**
 * The community category form (ModerationCategories.tsx), new or edit: slug (new only), name,
 * description, level, position and whether visitors read it; the server's field errors shown under
 * each field.
 */
import { useId, useState, type FormEvent } from 'react';
import { CATEGORY_POSITION, MODERATION_LIMITS } from '#shared/community/moderation.ts';
import { toast } from '../../lib/browser/toast.ts';
import { AccessLevelSelect } from '../forms/AccessLevelSelect.tsx';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import { createCategory, failureText, updateCategory, type Category, type CategoryFields } from './moderation-api.ts';

const BUTTON = 'min-h-10 rounded-lg px-4 py-2 text-sm font-semibold disabled:opacity-60';
export const PRIMARY = `${BUTTON} bg-brand-600 text-white hover:bg-brand-700`;
export const SECONDARY = `${BUTTON} text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50`;
type Draft = CategoryFields & { slug: string };
const EMPTY: Draft = {
  slug: '',
  name: '',
  description: '',
  accessLevel: 'free',
  anyoneReads: false,
  position: 0,
};

type Failure = Parameters<typeof failureText>[0];
/** The toast for a change the server refused. */
export const failed = (result: Failure, fallback: string) =>
  toast({ title: 'Error', description: failureText(result, fallback), variant: 'destructive' });

/** Sets one field of the category being edited. */
type SetField = <K extends keyof Draft>(key: K, value: Draft[K]) => void;
type InputsProps = { ids: string; fields: Draft; errors: Record<string, string[]>; set: SetField };

/** A new category (`category` null) or a change to one. */
export function CategoryForm({ category, onSaved, onCancel }: { category: Category | null; onSaved: () => void; onCancel: () => void }) {
  const [fields, setFields] = useState(category ?? EMPTY);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [saving, setSaving] = useState(false);
  const ids = useId();
  const set: SetField = (key, value) => setFields((f) => ({ ...f, [key]: value }));

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    const body = {
      name: fields.name,
      description: fields.description,
      accessLevel: fields.accessLevel,
      anyoneReads: fields.accessLevel === 'free' && fields.anyoneReads,
      position: fields.position,
    };
    const result = category ? await updateCategory(category.slug, body) : await createCategory({ ...body, slug: fields.slug });
    setSaving(false);
    if (!result.ok) {
      if (result.kind === 'error' && result.fields) return setErrors(result.fields);
      return failed(result, 'The category could not be saved.');
    }
    toast({ title: category ? 'Category saved' : 'Category created', description: result.data.category.name });
    onSaved();
  }

  return (
    <form
      onSubmit={(e) => void save(e)}
      aria-label={category ? `Edit ${category.name}` : 'New category'}
      className="grid gap-4 sm:grid-cols-2"
    >
      <NamingInputs ids={ids} isNew={!category} fields={fields} errors={errors} set={set} />
      <PlacementInputs ids={ids} fields={fields} errors={errors} set={set} />
      <div className="flex gap-3 sm:col-span-2">
        <button type="submit" className={PRIMARY} disabled={saving}>
          {saving ? 'Saving...' : category ? 'Save category' : 'Create category'}
        </button>
        <button type="button" className={SECONDARY} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The server's first complaint about a field, under it. */
function FieldError({ id, messages }: { id: string; messages: string[] | undefined }) {
  if (!messages?.[0]) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-700">
      {messages[0]}
    </p>
  );
}

/** What names the category: its slug (only when new), name and description. */
function NamingInputs({ ids, isNew, fields, errors, set }: InputsProps & { isNew: boolean }) {
  return (
    <>
      {isNew && (
        <div>
          <label htmlFor={`${ids}-slug`} className="block text-sm font-medium text-slate-700">
            Slug (its address: /community/slug)
          </label>
          <input id={`${ids}-slug`} className={INPUT_CLASS} value={fields.slug} onChange={(e) => set('slug', e.target.value)} required />
          <FieldError id={`${ids}-slug-error`} messages={errors.slug} />
        </div>
      )}
      <div>
        <label htmlFor={`${ids}-name`} className="block text-sm font-medium text-slate-700">
          Name
        </label>
        <input
          id={`${ids}-name`}
          className={INPUT_CLASS}
          value={fields.name}
          maxLength={MODERATION_LIMITS.categoryName}
          onChange={(e) => set('name', e.target.value)}
          required
        />
        <FieldError id={`${ids}-name-error`} messages={errors.name} />
      </div>
      <div className="sm:col-span-2">
        <label htmlFor={`${ids}-description`} className="block text-sm font-medium text-slate-700">
          Description
        </label>
        <textarea
          id={`${ids}-description`}
          className={INPUT_CLASS}
          rows={2}
          maxLength={MODERATION_LIMITS.categoryDescription}
          value={fields.description}
          onChange={(e) => set('description', e.target.value)}
        />
        <FieldError id={`${ids}-description-error`} messages={errors.description} />
      </div>
    </>
  );
}

/** Who reads the category and where it sits: its level, position and whether visitors read it. */
function PlacementInputs({ ids, fields, errors, set }: InputsProps) {
  return (
    <>
      <div>
        <label htmlFor={`${ids}-level`} className="block text-sm font-medium text-slate-700">
          Level to read and post
        </label>
        <AccessLevelSelect id={`${ids}-level`} value={fields.accessLevel} onChange={(level) => set('accessLevel', level)} />
      </div>
      <div>
        <label htmlFor={`${ids}-position`} className="block text-sm font-medium text-slate-700">
          Position (lower comes first)
        </label>
        <input
          id={`${ids}-position`}
          type="number"
          min={CATEGORY_POSITION.min}
          max={CATEGORY_POSITION.max}
          className={INPUT_CLASS}
          value={fields.position}
          onChange={(e) => set('position', Number(e.target.value))}
        />
        <FieldError id={`${ids}-position-error`} messages={errors.position} />
      </div>
      <label className="flex items-center gap-2 text-sm text-slate-700 sm:col-span-2">
        <input
          type="checkbox"
          checked={fields.accessLevel === 'free' && fields.anyoneReads}
          disabled={fields.accessLevel !== 'free'}
          onChange={(e) => set('anyoneReads', e.target.checked)}
        />
        Visitors may read it (free categories only; they sign in to post)
      </label>
    </>
  );
}
