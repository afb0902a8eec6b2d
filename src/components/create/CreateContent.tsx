/**
 * Create Content (/create, spec point 2): editors and admins only (a spinner while the session
 * loads; visitors go to /signin, members to /, both with replace; the API refuses them anyway).
 * Four tabs (Blog Post, Tool, Course, Market Item), each with the same form for its type, in two
 * sub-tabs: Manual Entry and AI Generation. See ContentForm.tsx.
 */
import { useId, useState } from 'react';
import type { ContentType } from '../../lib/content/registry.ts';
import { CREATE_TABS } from '../../lib/create/form.ts';
import { PageSpinner, TabList, useRoleGate } from '../admin/staff-page.tsx';
import { ContentForm } from './ContentForm.tsx';

const CREATORS = ['editor', 'admin'] as const;
const TABS = CREATE_TABS.map((t) => ({ id: t.type, label: t.label }));

export default function CreateContent() {
  const allowed = useRoleGate(CREATORS, { signedOut: '/signin?redirect=%2Fcreate', wrongRole: '/' });
  const [type, setType] = useState<ContentType>('blog');
  const ids = useId();
  if (!allowed) return <PageSpinner />;

  return (
    <div className="space-y-8">
      <h1 className="text-3xl font-bold text-slate-900">Create Content</h1>
      <TabList label="Content type" tabs={TABS} current={type} onSelect={setType} idPrefix={ids} />
      <section role="tabpanel" id={`${ids}-panel`} aria-labelledby={`${ids}-${type}`}>
        <ContentForm key={type} type={type} />
      </section>
    </div>
  );
}
