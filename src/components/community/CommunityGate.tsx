/**
 * The gate of a discussion the viewer may not read: with the level known (a 403, or a category's
 * own level), the site's gate card; a visitor refused a thread (401: its level is not said to
 * visitors) is asked to sign in, since which discussions open depends on the plan.
 */
import type { AccessLevel } from '#shared/access.ts';
import { GateCard, signInHref, signUpHref } from '../content/gated/GateCard.tsx';

export function CommunityGate({ signedIn, level, what }: { signedIn: boolean; level?: AccessLevel | undefined; what: string }) {
  if (level) return <GateCard level={level} what={what} signedIn={signedIn} />;
  return (
    <div
      data-testid="gate-card"
      className="rounded-2xl border border-brand-200 bg-gradient-to-br from-brand-50 to-white p-8 text-center shadow-sm"
    >
      <h2 className="text-xl font-semibold text-ink">Members only</h2>
      <p className="mt-2 text-slate-600">This {what} is for members. Sign in to read it, or sign up: every plan includes the community.</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <a href={signInHref()} className="rounded-lg bg-brand-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-700">
          Sign in
        </a>
        <a
          href={signUpHref()}
          className="rounded-lg px-5 py-2.5 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50"
        >
          Sign up
        </a>
      </div>
    </div>
  );
}
