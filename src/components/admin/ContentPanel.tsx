/**
 * Content Management (beyond the spec's "coming soon"): every item of both sources, filtered by
 * type and title. Git items are read-only here and show their file; database items can be edited
 * (in /create), unpublished (kept, but out of every public and member channel) and published again,
 * or deleted (after a confirmation) through the creator API. Each event opens its registrants
 * (list and CSV, ../events/EventRegistrants.tsx). Above the list, a search of the items' text,
 * drafts included (ContentSearch.tsx).
 */
import { useEffect, useId, useState } from 'react';
import { accessLabel } from '#shared/access.ts';
import { api, call, type ApiData } from '../../lib/browser/api.ts';
import { deleteItem, publishItem } from '../../lib/browser/create.ts';
import { CONTENT_TYPE_INFO, type ContentType } from '#shared/content/registry.ts';
import { CREATE_TABS } from '#shared/create-form.ts';
import { toast } from '../../lib/browser/toast.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import { EventRegistrants } from '../events/EventRegistrants.tsx';
import { ContentSearch } from './ContentSearch.tsx';

type CatalogItem = ApiData<typeof api.admin.content.$get>['items'][number];

const ITEM_BUTTON = 'min-h-9 rounded-lg px-3 py-1.5 text-sm font-semibold ring-1 ring-inset disabled:opacity-60';

/** The toast for a write the server refused. */
const toastFailure = (description: string) => toast({ title: 'Error', description, variant: 'destructive' });

export function ContentPanel() {
  const [items, setItems] = useState<CatalogItem[] | null>(null);
  const [error, setError] = useState('');
  const [type, setType] = useState<ContentType | 'all'>('all');
  const [text, setText] = useState('');
  /** The item a write is under way for, and which. */
  const [busy, setBusy] = useState<{ id: string; action: 'delete' | 'publish' } | null>(null);
  const ids = useId();

  useEffect(() => {
    const controller = new AbortController();
    call((o) => api.admin.content.$get({}, o), { signal: controller.signal })
      .then((result) => {
        if (result.ok) setItems(result.data.items);
        else setError(result.kind === 'error' ? result.message : 'The content could not be loaded.');
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, []);

  async function setPublished(item: CatalogItem, published: boolean) {
    setBusy({ id: item.id, action: 'publish' });
    const result = await publishItem(item.type, item.id, published);
    setBusy(null);
    if (result.ok) {
      setItems((all) => all?.map((i) => (i.id === item.id ? { ...i, published } : i)) ?? null);
      toast({
        title: published ? 'Published' : 'Unpublished',
        description: published
          ? `"${item.title}" is public again.`
          : `"${item.title}" has been unpublished. It can be published again here.`,
      });
    } else toastFailure(result.kind === 'error' ? result.message : 'The item could not be changed.');
  }

  async function remove(item: CatalogItem) {
    if (!window.confirm(`Delete "${item.title}"? This cannot be undone.`)) return;
    setBusy({ id: item.id, action: 'delete' });
    const result = await deleteItem(item.type, item.id);
    setBusy(null);
    if (result.ok || result.kind === 'not-found') {
      setItems((all) => all?.filter((i) => i.id !== item.id) ?? null);
      toast({ title: 'Deleted', description: `"${item.title}" has been deleted.` });
    } else toastFailure(result.kind === 'error' ? result.message : 'The item could not be deleted.');
  }

  if (error)
    return (
      <p role="alert" className="text-red-700">
        {error}
      </p>
    );
  if (!items)
    return (
      <p role="status" className="text-slate-600">
        Loading content...
      </p>
    );

  const needle = text.trim().toLowerCase();
  const shown = items.filter((i) => (type === 'all' || i.type === type) && (!needle || i.title.toLowerCase().includes(needle)));
  return (
    <div className="space-y-5">
      <ContentSearch />
      <ContentFilters ids={ids} type={type} text={text} onType={setType} onText={setText} />
      <p className="text-sm text-slate-600">{shown.length === 1 ? '1 item' : `${shown.length} items`}</p>
      <ul className="divide-y divide-slate-200 rounded-2xl bg-white ring-1 ring-slate-200" aria-label="Content items">
        {shown.map((item) => (
          <ContentRow
            key={`${item.type}-${item.id}`}
            item={item}
            busy={busy?.id === item.id ? busy.action : null}
            onPublished={() => void setPublished(item, !item.published)}
            onRemove={() => void remove(item)}
          />
        ))}
      </ul>
    </div>
  );
}

type ContentFiltersProps = {
  ids: string;
  type: ContentType | 'all';
  text: string;
  onType: (type: ContentType | 'all') => void;
  onText: (text: string) => void;
};

/** The list's filters (type and title) and the way to /create. */
function ContentFilters({ ids, type, text, onType, onText }: ContentFiltersProps) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor={`${ids}-type`} className="block text-sm font-medium text-slate-700">
          Type
        </label>
        <select id={`${ids}-type`} className={INPUT_CLASS} value={type} onChange={(e) => onType(e.target.value as ContentType | 'all')}>
          <option value="all">All types</option>
          {CREATE_TABS.map((t) => (
            <option key={t.type} value={t.type}>
              {t.label}
            </option>
          ))}
        </select>
      </div>
      <div className="min-w-64 flex-1">
        <label htmlFor={`${ids}-q`} className="block text-sm font-medium text-slate-700">
          Filter by title
        </label>
        <input id={`${ids}-q`} type="search" className={INPUT_CLASS} value={text} onChange={(e) => onText(e.target.value)} />
      </div>
      <a href="/create" className="min-h-10 rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700">
        Create Content
      </a>
    </div>
  );
}

type ContentRowProps = {
  item: CatalogItem;
  /** The write under way for this item, if any. */
  busy: 'delete' | 'publish' | null;
  onPublished: () => void;
  onRemove: () => void;
};

/** One item of the catalogue: its title, type, access and source; a database item's actions. */
function ContentRow({ item, busy, onPublished, onRemove }: ContentRowProps) {
  return (
    <li aria-label={item.title} className="flex flex-wrap items-center justify-between gap-3 px-5 py-3">
      <div className="min-w-0">
        {item.published ? (
          <a href={item.path} className="font-semibold text-slate-900 hover:underline">
            {item.title}
          </a>
        ) : (
          <span className="font-semibold text-slate-900">
            {item.title}{' '}
            <span className="ml-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-800">Unpublished</span>
          </span>
        )}
        <p className="text-sm text-slate-600" data-testid="content-meta">
          {CONTENT_TYPE_INFO[item.type].name} · {accessLabel(item.accessLevel)} ·{' '}
          {item.source === 'mdx' ? `Git: ${item.file} (read-only)` : 'Database'}
        </p>
      </div>
      {item.source === 'db' && (
        <div className="flex gap-2">
          <a href={`/create?edit=${item.type}:${item.id}`} className={`${ITEM_BUTTON} text-brand-700 ring-brand-200 hover:bg-brand-50`}>
            Edit
          </a>
          <button
            type="button"
            disabled={busy !== null}
            onClick={onPublished}
            className={`${ITEM_BUTTON} text-slate-700 ring-slate-300 hover:bg-slate-50`}
          >
            {busy === 'publish' ? 'Saving...' : item.published ? 'Unpublish' : 'Publish'}
          </button>
          <button
            type="button"
            disabled={busy !== null}
            onClick={onRemove}
            className={`${ITEM_BUTTON} text-red-700 ring-red-200 hover:bg-red-50`}
          >
            {busy === 'delete' ? 'Deleting...' : 'Delete'}
          </button>
        </div>
      )}
      {item.type === 'event' && item.published && <EventRegistrants slug={item.slug} />}
    </li>
  );
}
