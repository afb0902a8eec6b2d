/**
 * The community's categories, for admins: each with its level (to read and to post), whether
 * visitors may read it (free categories only), its order and its thread count; New category, Edit
 * (everything but the slug, which is its address) and Delete (refused by the server while it holds
 * threads, so the button says so first).
 */
import { useCallback, useEffect, useState } from 'react';
import { accessLabel } from '#shared/access.ts';
import { toast } from '../../lib/browser/toast.ts';
import { CategoryForm, failed, PRIMARY, SECONDARY } from './ModerationCategoryForm.tsx';
import { deleteCategory, failureText, loadCategories, type Category } from './moderation-api.ts';

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
                <CategorySummary category={c} onEdit={() => setEditing(c.slug)} onDelete={() => void remove(c)} />
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

type CategorySummaryProps = { category: Category; onEdit: () => void; onDelete: () => void };

/** A category as listed: name, address, level, position, thread count and description; Edit and Delete. */
function CategorySummary({ category: c, onEdit, onDelete }: CategorySummaryProps) {
  return (
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
        <button type="button" className={SECONDARY} onClick={onEdit}>
          Edit
        </button>
        <button
          type="button"
          className={SECONDARY}
          disabled={c.threadCount > 0}
          title={c.threadCount > 0 ? 'Move or delete its threads first' : undefined}
          onClick={onDelete}
        >
          Delete
        </button>
      </div>
    </div>
  );
}
