/**
 * The admin dashboard (/admin, spec point 2): a spinner while the session loads; visitors and
 * everyone who is not staff go to / with replace (the spec lets premium members in; the email
 * log holds other people's mail, so here and on the server only admins pass those tabs). 'Admin
 * Dashboard' with the Email Management (default), User Management and Content Management tabs, a
 * Newsletter tab, a Moderation tab (the community's queue, log and, for admins, categories), a
 * Support tab (members' requests), an Offers tab (offers, their redemptions and revenue, trials), an
 * Integrations tab (API keys and outbound webhooks with their delivery log, issue 35) and an Overview
 * (beyond the spec). Editors see the Newsletter,
 * Moderation and Support tabs only.
 */
import '../../lib/browser/zod-jitless.ts';
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useId, useState } from 'react';
import { $auth } from '../../lib/browser/auth/client.ts';
import { ContentPanel } from './ContentPanel.tsx';
import { EmailDashboard } from './EmailDashboard.tsx';
import { OverviewPanel } from './OverviewPanel.tsx';
import { PageSpinner, TabList, useRoleGate } from './staff-page.tsx';
import { UsersPanel } from './UsersPanel.tsx';

type Tab = 'emails' | 'users' | 'offers' | 'content' | 'newsletter' | 'moderation' | 'support' | 'integrations' | 'overview';
const TABS: { id: Tab; label: string }[] = [
  { id: 'emails', label: 'Email Management' },
  { id: 'users', label: 'User Management' },
  { id: 'offers', label: 'Offers' },
  { id: 'content', label: 'Content Management' },
  { id: 'newsletter', label: 'Newsletter' },
  { id: 'moderation', label: 'Moderation' },
  { id: 'support', label: 'Support' },
  { id: 'integrations', label: 'Integrations' },
  { id: 'overview', label: 'Overview' },
];
/** What an editor may open here (the server refuses them everything else). */
const EDITOR_TABS = TABS.filter((t) => t.id === 'newsletter' || t.id === 'moderation' || t.id === 'support');
const STAFF = ['editor', 'admin'] as const;
/** In a chunk of its own, loaded when the tab opens: the email dashboard (admins' default) does not carry it. */
const NewsletterPanel = lazy(() => import('./NewsletterPanel.tsx').then((m) => ({ default: m.NewsletterPanel })));
/** The community's queue, log and categories: a chunk of its own too. */
const ModerationPanel = lazy(() => import('./ModerationPanel.tsx').then((m) => ({ default: m.ModerationPanel })));
/** The support desk's queue and conversations: a chunk of its own as well. */
const OffersPanel = lazy(() => import('./OffersPanel.tsx').then((m) => ({ default: m.OffersPanel })));
/** API keys and webhooks for other tools: rarely opened, so a chunk of its own. */
const IntegrationsPanel = lazy(() => import('./IntegrationsPanel.tsx').then((m) => ({ default: m.IntegrationsPanel })));
const SupportPanel = lazy(() => import('./SupportPanel.tsx').then((m) => ({ default: m.SupportPanel })));

export default function AdminDashboard() {
  const allowed = useRoleGate(STAFF, { signedOut: '/', wrongRole: '/' });
  const auth = useStore($auth);
  const isAdmin = auth.status === 'signed-in' && auth.profile?.role === 'admin';
  const tabs = isAdmin ? TABS : EDITOR_TABS;
  const [chosen, setTab] = useState<Tab | null>(null);
  const tab = tabs.find((t) => t.id === chosen)?.id ?? tabs[0]!.id;
  const ids = useId();
  if (!allowed) return <PageSpinner />;

  return (
    <div className="space-y-8">
      <h1 className="text-3xl font-bold text-slate-900">Admin Dashboard</h1>
      <TabList label="Admin sections" tabs={tabs} current={tab} onSelect={setTab} idPrefix={ids} />
      <section role="tabpanel" id={`${ids}-panel`} aria-labelledby={`${ids}-${tab}`}>
        {tab === 'emails' && <EmailDashboard />}
        {tab === 'users' && <UsersPanel />}
        {tab === 'content' && <ContentPanel />}
        {tab === 'newsletter' && (
          <Suspense
            fallback={
              <p role="status" className="text-slate-600">
                Loading issues...
              </p>
            }
          >
            <NewsletterPanel />
          </Suspense>
        )}
        {tab === 'moderation' && (
          <Suspense
            fallback={
              <p role="status" className="text-slate-600">
                Loading moderation...
              </p>
            }
          >
            <ModerationPanel admin={isAdmin} />
          </Suspense>
        )}
        {tab === 'support' && (
          <Suspense
            fallback={
              <p role="status" className="text-slate-600">
                Loading support requests...
              </p>
            }
          >
            <SupportPanel />
          </Suspense>
        )}
        {tab === 'offers' && (
          <Suspense
            fallback={
              <p role="status" className="text-slate-600">
                Loading offers...
              </p>
            }
          >
            <OffersPanel />
          </Suspense>
        )}
        {tab === 'integrations' && (
          <Suspense
            fallback={
              <p role="status" className="text-slate-600">
                Loading integrations...
              </p>
            }
          >
            <IntegrationsPanel />
          </Suspense>
        )}
        {tab === 'overview' && <OverviewPanel />}
      </section>
    </div>
  );
}
