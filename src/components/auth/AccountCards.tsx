/**
 * Parts of the account page (AccountPage.tsx): the Access Level card (spec point 6: what each level
 * grants, and Upgrade Plan below premium), the tab labels, and the page's skeleton. The skeleton is
 * the page in its loading look, each part the size of what most likely follows for the member's last
 * known level (else free), so the page keeps its shape when it fills in; account.astro also renders it
 * as the static placeholder until the island runs.
 */
import type { AccessLevel } from '#shared/access.ts';
import { Reserved } from '../content/gated/LoadStates.tsx';
import { UpcomingEventsSkeleton } from '../events/UpcomingEventsCard.tsx';
import { SubscriptionSkeleton } from '../payments/SubscriptionCard.tsx';
import { SupportCard } from '../support/SupportCard.tsx';
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

/** `loading`: `level` is a guess, so the card keeps its room, unseen. */
export function AccessLevelCard({ level, loading }: { level: AccessLevel; loading?: boolean }) {
  const body = (
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
      {loading ? <Reserved>{body}</Reserved> : body}
    </div>
  );
}

/** The account page before it can draw itself (see the file's head). */
export function AccountSkeleton({ level = 'free' }: { level?: AccessLevel }) {
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
      <div aria-hidden="true" className="flex gap-2 border-b border-slate-200">
        {Object.values(TAB_LABELS).map((label, i) => (
          <span key={label} className={tabClass(i === 0)}>
            {label}
          </span>
        ))}
      </div>
      <div className="grid gap-6 md:grid-cols-2">
        <SubscriptionSkeleton className={card} withPlan={level !== 'free'} />
        <AccessLevelCard level={level} loading />
        <CourseProgressSkeleton className={`${card} md:col-span-2`} />
        <UpcomingEventsSkeleton className={`${card} md:col-span-2`} />
        <SupportCard level={level} className={`${card} md:col-span-2`} loading />
      </div>
    </div>
  );
}
