/**
 * Parts of the account page (AccountPage.tsx): the Access Level card (spec point 6: what each level
 * grants, and Upgrade Plan below premium), the tab labels, and the page's skeleton. The skeleton is
 * the page in its loading look, each part the size of what most likely follows for the member's last
 * known level and plan (else free, no plan; account-guess.tsx), so the page keeps its shape when it
 * fills in; account.astro also renders it as the placeholder until the island runs.
 */
import type { AccessLevel } from '#shared/access.ts';
import type { PaymentMode } from '../../lib/browser/payments/client.ts';
import { Reserved } from '../content/gated/LoadStates.tsx';
import { UpcomingEventsSkeleton } from '../events/UpcomingEventsCard.tsx';
import { GrantsSkeleton } from '../payments/GrantsCard.tsx';
import { SubscriptionSkeleton } from '../payments/SubscriptionCard.tsx';
import { TestModeNotice } from '../payments/TestModeNotice.tsx';
import { SupportCard } from '../support/SupportCard.tsx';
import { ByLevel, type AccountGuess } from './account-guess.tsx';
import { button, card } from './account-ui.ts';
import { CourseProgressSkeleton } from './CourseProgressCard.tsx';

export const TAB_LABELS = { subscription: 'Subscription', profile: 'Profile', settings: 'Settings' } as const;

/** A tab's look, chosen or not. */
export const tabClass = (chosen: boolean) =>
  `-mb-px border-b-2 px-4 py-2 text-sm font-semibold ${chosen ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600 hover:text-slate-900'}`;

/** What each level grants (spec point 6). */
const GRANTS: Record<AccessLevel, string[]> = {
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
const LEVEL_NAME: Record<AccessLevel, string> = { free: 'Free', subscriber: 'Subscriber', premium: 'Premium' };
const DOT: Record<AccessLevel, string> = { free: 'bg-slate-400', subscriber: 'bg-blue-500', premium: 'bg-purple-600' };

/** Either the member's `level`, or `loading`: a guess, so the card keeps its room, unseen. */
export function AccessLevelCard(props: { level: AccessLevel } | { loading: AccountGuess }) {
  const body = (level: AccessLevel) => (
    <>
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
    </>
  );
  return (
    <div className={card}>
      <h2 className="text-lg font-semibold text-slate-900">Access Level</h2>
      {'level' in props ? body(props.level) : <ByLevel guess={props.loading}>{(level) => <Reserved>{body(level)}</Reserved>}</ByLevel>}
    </div>
  );
}

/**
 * The account page before it can draw itself (see the file's head): `guess` from storage, and the
 * test-mode notice when the server said payments run in test mode.
 */
export function AccountSkeleton({ guess, mode }: { guess: AccountGuess; mode: PaymentMode | null | undefined }) {
  return (
    <div className="space-y-8">
      <div className={`${card} flex flex-wrap items-center gap-4`}>
        <span aria-hidden="true" className="h-16 w-16 animate-pulse rounded-full bg-slate-100" />
        <div className="min-w-0 grow basis-48">
          <Reserved label="Loading your account…">
            <p className="text-2xl font-bold">My Account</p>
            <p>Email</p>
          </Reserved>
        </div>
        <span aria-hidden="true" className={`${button} animate-pulse bg-slate-100 text-transparent`}>
          Sign Out
        </span>
      </div>
      <TestModeNotice mode={mode} />
      <div aria-hidden="true" className="flex gap-2 border-b border-slate-200">
        {Object.values(TAB_LABELS).map((label, i) => (
          <span key={label} className={tabClass(i === 0)}>
            {label}
          </span>
        ))}
      </div>
      <div className="grid gap-6 md:grid-cols-2">
        <SubscriptionSkeleton className={card} guess={guess} />
        <AccessLevelCard loading={guess} />
        <CourseProgressSkeleton className={`${card} md:col-span-2`} />
        <UpcomingEventsSkeleton className={`${card} md:col-span-2`} />
        <SupportCard loading={guess} className={`${card} md:col-span-2`} />
        <GrantsSkeleton guess={guess} className={`${card} md:col-span-2`} />
      </div>
    </div>
  );
}
