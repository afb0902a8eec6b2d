/**
 * The account page (spec point 2 "Account"): its skeleton (AccountCards.tsx) until the session, the
 * member's profile and the payment mode are known, so it then draws itself whole, once; a
 * replace-redirect to /signin without a session; the header (avatar fallback chain, name, email, Sign
 * Out) and three tabs: Subscription (the subscription card of ../payments, the access level card, and
 * course progress, upcoming events, support (its first-response target and requests) and purchases
 * beyond the spec), Profile (name) and Settings (AccountSettings.tsx). When payments run in test mode a
 * loud notice under the header says so (payments/TestModeNotice.tsx).
 */
import { useStore } from '@nanostores/react';
import { useDeferredValue, useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { withoutInvisible } from '#shared/visible-text.ts';
import { api, call } from '../../lib/browser/api.ts';
import { $auth, authClient, setProfile, startAuthClient, type Profile } from '../../lib/browser/auth/client.ts';
import type { PaymentMode } from '../../lib/browser/payments/client.ts';
import { warmIntl } from '../../lib/browser/intl-warm.ts';
import { storedAccessLevel, storedHasPlan } from '../../lib/browser/storage-keys.ts';
import { UpcomingEventsCard } from '../events/UpcomingEventsCard.tsx';
import { TextField } from '../forms/TextField.tsx';
import { GiftsCard } from '../payments/GiftsCard.tsx';
import { GrantsCard } from '../payments/GrantsCard.tsx';
import { PurchasesCard } from '../payments/PurchasesCard.tsx';
import { SubscriptionCard } from '../payments/SubscriptionCard.tsx';
import { TestModeNotice, usePaymentMode } from '../payments/TestModeNotice.tsx';
import { SupportCard } from '../support/SupportCard.tsx';
import { button, card, failed, isLeaving, signOutAndLeave } from './account-ui.ts';
import { AccessLevelCard, AccountSkeleton, TAB_LABELS, tabClass } from './AccountCards.tsx';
import { AccountSettings } from './AccountSettings.tsx';
import { CourseProgressCard } from './CourseProgressCard.tsx';

type Tab = keyof typeof TAB_LABELS;

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

/** `paymentMode`: as the server rendered the page with it (account.astro), so the island need not ask. */
export default function AccountPage({ paymentMode }: { paymentMode?: PaymentMode | undefined }) {
  const live = useStore($auth);
  // Deferred: the page drawn whole once the profile arrives is rendered as a transition, in slices
  // that leave the main thread free between them, not as one long task (nanostores' updates are urgent).
  // The redirect follows the live state, so a sign-out's own navigation (to / after Sign Out or a
  // deletion) comes after it, as before, and wins.
  const auth = useDeferredValue(live);
  const [tab, setTab] = useState<Tab>('subscription');
  const tabsId = useId();

  useEffect(() => {
    warmIntl(); // for the upcoming events card's dates, while the profile loads
    return startAuthClient();
  }, []);
  useEffect(() => {
    if (live.status === 'signed-out' && !isLeaving()) window.location.replace('/signin?redirect=%2Faccount');
  }, [live.status]);
  const mode = usePaymentMode(paymentMode);

  // The same element while nothing it shows changes, so the urgent renders of each session event
  // (supabase-js's first one, the profile's arrival) skip the skeleton instead of drawing it again.
  const skeleton = useMemo(
    () => <AccountSkeleton guess={{ level: storedAccessLevel() ?? 'free', withPlan: storedHasPlan() }} mode={mode} />,
    [mode],
  );

  if (auth.status !== 'signed-in' || auth.profile === undefined || mode === undefined) return skeleton;
  const { session } = auth;
  const profile = auth.profile;
  const email = profile?.email ?? session.user.email ?? '';
  const level = profile?.accessLevel ?? 'free';

  async function signOut() {
    await signOutAndLeave(() => authClient().auth.signOut());
  }

  return (
    <div className="space-y-8">
      <AccountHeader profile={profile} email={email} onSignOut={() => void signOut()} />

      <TestModeNotice mode={mode} />

      <div role="tablist" aria-label="Account sections" className="flex gap-2 border-b border-slate-200">
        {(Object.keys(TAB_LABELS) as Tab[]).map((id) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`${tabsId}-${id}`}
            aria-selected={tab === id}
            aria-controls={`${tabsId}-${id}-panel`}
            onClick={() => setTab(id)}
            className={tabClass(tab === id)}
          >
            {TAB_LABELS[id]}
          </button>
        ))}
      </div>

      <section role="tabpanel" id={`${tabsId}-${tab}-panel`} aria-labelledby={`${tabsId}-${tab}`}>
        {tab === 'subscription' && (
          <div className="grid gap-6 md:grid-cols-2">
            <SubscriptionCard auth={auth} className={card} />
            <AccessLevelCard level={level} />
            <CourseProgressCard className={`${card} md:col-span-2`} />
            <UpcomingEventsCard className={`${card} md:col-span-2`} />
            <SupportCard level={level} className={`${card} md:col-span-2`} />
            {/* Last: they appear only once they load, and only when there are some, so they move nothing below. */}
            <GrantsCard className={`${card} md:col-span-2`} language={profile?.language} level={level} />
            <GiftsCard className={`${card} md:col-span-2`} />
            <PurchasesCard className={`${card} md:col-span-2`} />
          </div>
        )}
        {tab === 'profile' && <ProfileTab token={session.access_token} profile={profile} email={email} onSaved={setProfile} />}
        {tab === 'settings' && <AccountSettings token={session.access_token} profile={profile} onSaved={setProfile} />}
      </section>
    </div>
  );
}

/** Avatar (or initials), name and email, and Sign Out. */
function AccountHeader({ profile, email, onSignOut }: { profile: Profile | null; email: string; onSignOut: () => void }) {
  return (
    <header className={`${card} flex flex-wrap items-center gap-4`}>
      {profile?.avatar ? (
        <img src={profile.avatar} alt="" className="h-16 w-16 rounded-full object-cover" />
      ) : (
        <span aria-hidden="true" className="grid h-16 w-16 place-items-center rounded-full bg-brand-100 text-xl font-bold text-brand-700">
          {initials(profile?.name, email)}
        </span>
      )}
      {/* At least 12rem for the name and email, so on a phone Sign Out wraps below them. One line each, as in
          the skeleton: a long address wrapped to three lines on a phone and pushed the page down by 40px
          when it drew (the whole address is in its title and on the Profile tab). */}
      <div className="min-w-0 grow basis-48">
        <h1 className="truncate text-2xl font-bold text-slate-900">{profile?.name?.trim() || 'My Account'}</h1>
        <p className="truncate text-slate-600" title={email}>
          {email}
        </p>
      </div>
      <button type="button" onClick={onSignOut} className={`${button} text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50`}>
        Sign Out
      </button>
    </header>
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
    const result = await call((o) => api.users.me.$patch({ json: { name: visibleName } }, o), { token });
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
