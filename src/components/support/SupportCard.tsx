/**
 * The account page's Support card: the first-response target of the member's level (Premium is
 * Priority support: 1 business day; the others 3), what Premium would give a member below it, and the
 * way to /account/support. Browser only.
 */
import type { AccessLevel } from '#shared/access.ts';
import { isPriority, responseTargetText } from '#shared/support/targets.ts';
import { ByLevel, type AccountGuess } from '../auth/account-guess.tsx';
import { Reserved } from '../content/gated/LoadStates.tsx';

/** Either the member's `level`, or `loading`: the account page is not drawn yet, and the level a guess: the card keeps its room, unseen. */
export function SupportCard({ className, ...props }: { className: string } & ({ level: AccessLevel } | { loading: AccountGuess })) {
  const body = (level: AccessLevel) => (
    <>
      <p className="mt-4 text-slate-700">{responseTargetText(level)}.</p>
      {!isPriority(level) && <p className="mt-1 text-sm text-slate-600">Premium members get {responseTargetText('premium')}.</p>}
      <a
        href="/account/support"
        className="mt-4 inline-flex min-h-11 items-center rounded-lg px-5 py-2.5 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50"
      >
        Your support requests
      </a>
    </>
  );
  return (
    <section aria-labelledby="support-card-heading" className={className}>
      <h2 id="support-card-heading" className="text-lg font-semibold text-slate-900">
        Support
      </h2>
      {'level' in props ? body(props.level) : <ByLevel guess={props.loading}>{(level) => <Reserved>{body(level)}</Reserved>}</ByLevel>}
    </section>
  );
}
