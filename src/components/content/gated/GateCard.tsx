/**
 * The gate card (spec point 4 "Gate cards"): the level's title and text, Upgrade Now (to /pricing)
 * and, for visitors who are not signed in, Sign In that returns them to this page. Members whose
 * level is too low get Upgrade Now only. A visitor on a free item gets 'Free with an account' with
 * Sign up and Sign in instead (both return here; `gateFor`). Islands draw it live; detail pages also
 * render it statically (signed out, `returnTo` the page) for visitors without JavaScript and crawlers.
 */
import { gateFor, type AccessLevel } from '#shared/access.ts';

export interface GateCardProps {
  level: AccessLevel;
  /** What is behind the gate, e.g. "article", "lesson" or "download". */
  what: string;
  /** Whether the viewer is signed in (then Sign In is left out). */
  signedIn: boolean;
  /** The page Sign in and Sign up come back to; by default the current one (path and query). */
  returnTo?: string;
}

const here = () => (typeof window === 'undefined' ? '/' : `${window.location.pathname}${window.location.search}`);

/** The sign-in link that comes back to `returnTo` (by default here: path and query) afterwards. */
export function signInHref(returnTo = here()): string {
  return `/signin?redirect=${encodeURIComponent(returnTo)}`;
}

/** The sign-up link: its confirmation mail leads to sign-in with the same `redirect`, so back to `returnTo`. */
export function signUpHref(returnTo = here()): string {
  return `/signup?redirect=${encodeURIComponent(returnTo)}`;
}

const PRIMARY = 'rounded-lg bg-brand-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-700';
const SECONDARY = 'rounded-lg px-5 py-2.5 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50';

export function GateCard({ level, what, signedIn, returnTo = here() }: GateCardProps) {
  const { kind, title, text } = gateFor(level, what, signedIn);
  return (
    <div
      data-testid="gate-card"
      className="rounded-2xl border border-brand-200 bg-gradient-to-br from-brand-50 to-white p-8 text-center shadow-sm"
    >
      <div className="mx-auto grid h-12 w-12 place-items-center rounded-full bg-brand-100 text-brand-700">
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2">
          <rect x="4" y="11" width="16" height="10" rx="2"></rect>
          <path d="M8 11V7a4 4 0 0 1 8 0v4"></path>
        </svg>
      </div>
      <h2 className="mt-4 text-xl font-semibold text-ink">{title}</h2>
      <p className="mt-2 text-slate-600">{text}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        {kind === 'account' ? (
          <>
            <a href={signUpHref(returnTo)} className={PRIMARY}>
              Sign up
            </a>
            <a href={signInHref(returnTo)} className={SECONDARY}>
              Sign in
            </a>
          </>
        ) : (
          <>
            <a href="/pricing" className={PRIMARY}>
              Upgrade Now
            </a>
            {!signedIn && (
              <a href={signInHref(returnTo)} className={SECONDARY}>
                Sign In
              </a>
            )}
          </>
        )}
      </div>
    </div>
  );
}
