/**
 * The account page (spec point 2 "Account"): a loader while the session loads, a replace-redirect to
 * /signin without one, the header (avatar fallback chain, name, email, Sign Out) and three tabs:
 * Subscription (the subscription card of ../payments, the access level card, and purchases, course
 * progress, upcoming events and support (its first-response target and requests) beyond the spec),
 * Profile (name) and Settings (AccountSettings.tsx).
 * When payments run in test mode a loud notice under the header says so (payments/TestModeNotice.tsx).
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { withoutInvisible } from '#shared/visible-text.ts';
import { $auth, authClient, setProfile, type Profile } from '../../lib/browser/auth/client.ts';
import { TextField } from '../forms/TextField.tsx';
import { AccountSettings } from './AccountSettings.tsx';
import { PurchasesCard } from '../payments/PurchasesCard.tsx';
import { SubscriptionCard } from '../payments/SubscriptionCard.tsx';
import { TestModeNotice } from '../payments/TestModeNotice.tsx';
import { api, call } from '../../lib/browser/api.ts';
import { button, card, failed } from './account-ui.ts';
import { CourseProgressCard } from './CourseProgressCard.tsx';
import { UpcomingEventsCard } from '../events/UpcomingEventsCard.tsx';
import { SupportCard } from '../support/SupportCard.tsx';

type Tab = 'subscription' | 'profile' | 'settings';
const TABS: { id: Tab; label: string }[] = [
  { id: 'subscription', label: 'Subscription' },
  { id: 'profile', label: 'Profile' },
  { id: 'settings', label: 'Settings' },
];

/** What each level grants (spec point 6). */
const GRANTS: Record<Profile['accessLevel'], string[]> = {
  free: ['Free content', 'Community forum'],
  subscriber: ['Free content', 'Community forum', 'Subscriber content', 'Monthly newsletter', 'Basic tools and templates'],
  premium: [
    'Free content',
    'Community forum',
    'Subscriber content',
    'Monthly newsletter',
    'Basic tools and templates',
    'All premium content',
    'Exclusive webinars and events',
    'Priority support',
    'Advanced tools and templates',
  ],
};
const LEVEL_NAME: Record<Profile['accessLevel'], string> = { free: 'Free', subscriber: 'Subscriber', premium: 'Premium' };
const DOT: Record<Profile['accessLevel'], string> = { free: 'bg-slate-400', subscriber: 'bg-blue-500', premium: 'bg-purple-600' };

/** Avatar, else initials of the name, else the email's first letter, else 'U'. */
function initials(name: string | null | undefined, email: string | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length)
    return words
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join('');
  return email?.[0]?.toUpperCase() ?? 'U';
}

export default function AccountPage() {
  const auth = useStore($auth);
  const [tab, setTab] = useState<Tab>('subscription');
  const tabsId = useId();

  useEffect(() => {
    authClient();
  }, []);
  useEffect(() => {
    if (auth.status === 'signed-out') window.location.replace('/signin?redirect=%2Faccount');
  }, [auth.status]);

  if (auth.status !== 'signed-in') {
    return (
      <div className="flex justify-center py-24" role="status">
        <span className="h-8 w-8 animate-spin rounded-full border-4 border-brand-200 border-t-brand-600" />
        <span className="sr-only">Loading your account…</span>
      </div>
    );
  }
  const { session } = auth;
  const profile = auth.profile ?? null;
  const email = profile?.email ?? session.user.email ?? '';
  const level = profile?.accessLevel ?? 'free';

  async function signOut() {
    await authClient().auth.signOut();
    window.location.assign('/');
  }

  return (
    <div className="space-y-8">
      <header className={`${card} flex flex-wrap items-center gap-4`}>
        {profile?.avatar ? (
          <img src={profile.avatar} alt="" className="h-16 w-16 rounded-full object-cover" />
        ) : (
          <span aria-hidden="true" className="grid h-16 w-16 place-items-center rounded-full bg-brand-100 text-xl font-bold text-brand-700">
            {initials(profile?.name, email)}
          </span>
        )}
        {/* At least 12rem for the name and email, so on a phone Sign Out wraps below them rather than cutting the email. */}
        <div className="min-w-0 grow basis-48">
          <h1 className="text-2xl font-bold text-slate-900 wrap-break-word">{profile?.name?.trim() || 'My Account'}</h1>
          <p className="text-slate-600 wrap-anywhere">{email}</p>
        </div>
        <button
          type="button"
          onClick={() => void signOut()}
          className={`${button} text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50`}
        >
          Sign Out
        </button>
      </header>

      <TestModeNotice />

      <div role="tablist" aria-label="Account sections" className="flex gap-2 border-b border-slate-200">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`${tabsId}-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`${tabsId}-${t.id}-panel`}
            onClick={() => setTab(t.id)}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold ${tab === t.id ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
          >
            {t.label}
          </button>
        ))}
      </div>

      <section role="tabpanel" id={`${tabsId}-${tab}-panel`} aria-labelledby={`${tabsId}-${tab}`}>
        {tab === 'subscription' && (
          <div className="grid gap-6 md:grid-cols-2">
            <SubscriptionCard auth={auth} className={card} />
            <div className={card}>
              <h2 className="text-lg font-semibold text-slate-900">Access Level</h2>
              <p className="mt-4 flex items-center gap-2 text-xl font-bold text-slate-900">
                <span aria-hidden="true" className={`h-3 w-3 rounded-full ${DOT[level]}`} />
                {LEVEL_NAME[level]}
              </p>
              <ul className="mt-4 list-disc space-y-1 pl-5 text-sm text-slate-700">
                {GRANTS[level].map((g) => (
                  <li key={g}>{g}</li>
                ))}
              </ul>
              {level !== 'premium' && (
                <a href="/pricing" className={`${button} mt-6 inline-flex bg-brand-600 text-white hover:bg-brand-700`}>
                  Upgrade Plan
                </a>
              )}
            </div>
            <PurchasesCard className={`${card} md:col-span-2`} />
            <CourseProgressCard className={`${card} md:col-span-2`} />
            <UpcomingEventsCard className={`${card} md:col-span-2`} />
            <SupportCard level={level} className={`${card} md:col-span-2`} />
          </div>
        )}
        {tab === 'profile' && <ProfileTab token={session.access_token} profile={profile} email={email} onSaved={setProfile} />}
        {tab === 'settings' && <AccountSettings token={session.access_token} profile={profile} onSaved={setProfile} />}
      </section>
    </div>
  );
}

function ProfileTab({
  token,
  profile,
  email,
  onSaved,
}: {
  token: string;
  profile: Profile | null;
  email: string;
  onSaved: (p: Profile) => void;
}) {
  const [name, setName] = useState(profile?.name ?? '');
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  // What the server keeps: a name of only invisible characters (bidirectional controls) is no name.
  const visibleName = withoutInvisible(name).trim();

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setSaved(false);
    const result = await call((o) => api.users.me.$patch({}, o), { body: { name: visibleName }, token });
    setSaving(false);
    if (!result.ok) return failed();
    onSaved(result.data);
    setSaved(true);
  }

  return (
    <form onSubmit={save} className={`${card} max-w-xl space-y-4`} aria-label="Profile">
      <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
      <TextField
        label="Email"
        value={email}
        readOnly
        disabled
        className="bg-slate-50 text-slate-500"
        note="To change your email, please contact support."
      />
      <button type="submit" disabled={saving || !visibleName} className={`${button} bg-brand-600 text-white hover:bg-brand-700`}>
        Save Changes
      </button>
      {saved && (
        <p role="status" className="text-sm font-medium text-green-700">
          Profile updated successfully!
        </p>
      )}
    </form>
  );
}
