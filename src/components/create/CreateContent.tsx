/**
 * Create Content (/create, spec point 2): editors and admins only (a spinner while the session
 * loads; visitors go to /signin, members to /, both with replace; the API refuses them anyway).
 * Four tabs (Blog Post, Tool, Course, Market Item), each with the same form for its type, in two
 * sub-tabs: Manual Entry and AI Generation. See ContentForm.tsx.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useState } from 'react';
import { $auth, authClient } from '../../lib/auth/client.ts';
import { CREATE_TABS } from '../../lib/create/form.ts';
import type { ContentType } from '../../lib/content/registry.ts';
import { ContentForm } from './ContentForm.tsx';

export default function CreateContent() {
  const auth = useStore($auth);
  const [type, setType] = useState<ContentType>('blog');
  const tabsId = useId();
  const role = auth.status === 'signed-in' ? auth.profile?.role : undefined;

  useEffect(() => {
    authClient();
  }, []);
  useEffect(() => {
    if (auth.status === 'signed-out') window.location.replace('/signin?redirect=%2Fcreate');
    else if (role === 'member') window.location.replace('/');
  }, [auth.status, role]);

  if (role !== 'editor' && role !== 'admin') {
    return (
      <div className="flex justify-center py-24" role="status">
        <span className="h-8 w-8 animate-spin rounded-full border-4 border-brand-200 border-t-brand-600" />
        <span className="sr-only">Loading…</span>
      </div>
    );
  }

  return (
    <div className="space-y-8">
      <h1 className="text-3xl font-bold text-slate-900">Create Content</h1>
      <div role="tablist" aria-label="Content type" className="flex flex-wrap gap-2 border-b border-slate-200">
        {CREATE_TABS.map((t) => (
          <button
            key={t.type}
            type="button"
            role="tab"
            id={`${tabsId}-${t.type}`}
            aria-selected={type === t.type}
            aria-controls={`${tabsId}-panel`}
            onClick={() => setType(t.type)}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold ${type === t.type ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <section role="tabpanel" id={`${tabsId}-panel`} aria-labelledby={`${tabsId}-${type}`}>
        <ContentForm key={type} type={type} />
      </section>
    </div>
  );
}
