/**
 * The community's categories, for admins: each with its level (to read and to post), whether
 * visitors may read it (free categories only), its order and its thread count; New category, Edit
 * (everything but the slug, which is its address) and Delete (refused by the server while it holds
 * threads, so the button says so first).
 */
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { accessLabel } from '#shared/access.ts';
import { CATEGORY_POSITION, MODERATION_LIMITS } from '#shared/community/moderation.ts';
import { toast } from '../../lib/browser/toast.ts';
import { AccessLevelSelect } from '../forms/AccessLevelSelect.tsx';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import {
  createCategory,
  deleteCategory,
  failureText,
  loadCategories,
  updateCategory,
  type Category,
  type CategoryFields,
} from './moderation-api.ts';

const BUTTON = 'min-h-10 rounded-lg px-4 py-2 text-sm font-semibold disabled:opacity-60';
const PRIMARY = `${BUTTON} bg-brand-600 text-white hover:bg-brand-700`;
const SECONDARY = `${BUTTON} text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50`;
const EMPTY: CategoryFields & { slug: string } = {
  slug: '',
  name: '',
  description: '',
  accessLevel: 'free',
  anyoneReads: false,
  position: 0,
};

type Failure = Parameters<typeof failureText>[0];
const failed = (result: Failure, fallback: string) =>
  toast({ title: 'Error', description: failureText(result, fallback), variant: 'destructive' });

function CategoryForm({ category, onSaved, onCancel }: { category: Category | null; onSaved: () => void; onCancel: () => void }) {
  const [fields, setFields] = useState(category ?? EMPTY);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [saving, setSaving] = useState(false);
  const ids = useId();
  const set = <K extends keyof typeof fields>(key: K, value: (typeof fields)[K]) => setFields((f) => ({ ...f, [key]: value }));
  const error = (key: string) =>
    errors[key]?.[0] && (
      <p id={`${ids}-${key}-error`} className="mt-1 text-sm text-red-700">
        {errors[key][0]}
      </p>
    );

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
      {!category && (
        <div>
          <label htmlFor={`${ids}-slug`} className="block text-sm font-medium text-slate-700">
            Slug (its address: /community/slug)
          </label>
          <input id={`${ids}-slug`} className={INPUT_CLASS} value={fields.slug} onChange={(e) => set('slug', e.target.value)} required />
          {error('slug')}
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
        {error('name')}
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
        {error('description')}
      </div>
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
        {error('position')}
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

export function ModerationCategories() {
  const [items, setItems] = useState<Category[] | null>(null);
  const [error, setError] = useState('');
  const [editing, setEditing] = useState<string | null>(null);
  const [round, setRound] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    loadCategories(controller.signal)
      .then((result) => (result.ok ? setItems(result.data.items) : setError(failureText(result, 'The categories could not be loaded.'))))
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [round]);

  const reload = useCallback(() => {
    setEditing(null);
    setRound((n) => n + 1);
  }, []);

  async function remove(category: Category) {
    const result = await deleteCategory(category.slug);
    if (!result.ok) return failed(result, 'The category could not be deleted.');
    toast({ title: 'Category deleted', description: category.name });
    reload();
  }

  if (error)
    return (
      <p role="alert" className="text-red-700">
        {error}
      </p>
    );
  return (
    <div className="space-y-4">
      {editing === 'new' ? (
        <CategoryForm category={null} onSaved={reload} onCancel={() => setEditing(null)} />
      ) : (
        <button type="button" className={PRIMARY} onClick={() => setEditing('new')}>
          New category
        </button>
      )}
      {items === null ? (
        <p role="status" className="text-slate-600">
          Loading categories...
        </p>
      ) : (
        <ul className="space-y-3" aria-label="Categories">
          {items.map((c) => (
            <li key={c.id} aria-label={c.name} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
              {editing === c.slug ? (
                <CategoryForm category={c} onSaved={reload} onCancel={() => setEditing(null)} />
              ) : (
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div>
                    <p className="font-semibold text-slate-900">
                      {c.name} <span className="font-normal text-slate-500">/community/{c.slug}</span>
                    </p>
                    <p className="text-sm text-slate-600">
                      {accessLabel(c.accessLevel)} level{c.anyoneReads ? ', visitors read' : ''} · position {c.position} ·{' '}
                      {c.threadCount === 1 ? '1 thread' : `${c.threadCount} threads`}
                    </p>
                    {c.description && <p className="mt-1 text-sm text-slate-700">{c.description}</p>}
                  </div>
                  <div className="flex gap-2">
                    <button type="button" className={SECONDARY} onClick={() => setEditing(c.slug)}>
                      Edit
                    </button>
                    <button
                      type="button"
                      className={SECONDARY}
                      disabled={c.threadCount > 0}
                      title={c.threadCount > 0 ? 'Move or delete its threads first' : undefined}
                      onClick={() => void remove(c)}
                    >
                      Delete
                    </button>
                  </div>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
