/**
 * Create Content (/create, spec point 2): editors and admins only (a spinner while the session
 * loads; visitors go to /signin, members to /, both with replace; the API refuses them anyway).
 * A tab per content type (Blog Post, Tool, Course, Market Item, Event), each with the form for its type, in two
 * sub-tabs: Manual Entry and AI Generation. See ContentForm.tsx. With `?edit={type}:{id}` it edits
 * an existing database item instead (beyond the spec).
 */
import '../../lib/browser/zod-jitless.ts';
import { useEffect, useId, useState } from 'react';
import { CONTENT_TYPES, type ContentType } from '#shared/content/registry.ts';
import { fetchEditable } from '../../lib/browser/create.ts';
import { CREATE_TABS, draftFromInput } from '#shared/create-form.ts';
import { PageSpinner, TabList, useRoleGate } from '../admin/staff-page.tsx';
import { ContentForm, type Editing } from './ContentForm.tsx';

const CREATORS = ['editor', 'admin'] as const;
const TABS = CREATE_TABS.map((t) => ({ id: t.type, label: t.label }));

/** `?edit={type}:{id}`: an existing database item to edit (from the admin's content tab). */
function editTarget(): { type: ContentType; id: string } | null {
  const [type, id] = (new URLSearchParams(window.location.search).get('edit') ?? '').split(':');
  return type && id && (CONTENT_TYPES as readonly string[]).includes(type) ? { type: type as ContentType, id } : null;
}

export default function CreateContent() {
  const allowed = useRoleGate(CREATORS, { signedOut: '/signin?redirect=%2Fcreate', wrongRole: '/' });
  const [target] = useState(editTarget);
  const [type, setType] = useState<ContentType>(target?.type ?? 'blog');
  const [editing, setEditing] = useState<Editing | 'failed' | null>(null);
  const ids = useId();

  useEffect(() => {
    if (!allowed || !target) return;
    void fetchEditable(target.type, target.id).then((result) =>
      setEditing(result.ok ? { id: target.id, published: result.data.published, initial: draftFromInput(result.data.input) } : 'failed'),
    );
  }, [allowed, target]);

  if (!allowed || (target && editing === null)) return <PageSpinner />;
  if (editing === 'failed')
    return (
      <p role="alert" className="text-red-700">
        This item cannot be edited here: it does not exist, comes from git, or belongs to another editor.
      </p>
    );

  return (
    <div className="space-y-8">
      <h1 className="text-3xl font-bold text-slate-900">{editing ? 'Edit Content' : 'Create Content'}</h1>
      {editing && !editing.published && (
        <p role="note" className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
          This item is unpublished. Saving keeps it hidden; publish it from the Content tab of the admin dashboard.
        </p>
      )}
      {!editing && <TabList label="Content type" tabs={TABS} current={type} onSelect={setType} idPrefix={ids} />}
      <section role={editing ? undefined : 'tabpanel'} id={`${ids}-panel`} aria-labelledby={editing ? undefined : `${ids}-${type}`}>
        <ContentForm key={type} type={type} editing={editing ?? undefined} />
      </section>
    </div>
  );
}
