/**
 * What the account page's skeleton guesses of the member: their level and whether a plan shows, as
 * the auth client last stored them. The island reads storage itself; the static placeholder cannot,
 * so it carries every variant of the parts that differ ('stored') and CSS shows the one that
 * GUESS_SCRIPT, a tiny inline script account.astro runs before the first paint, read from storage
 * onto <html>. So the first paint is already the member's skeleton, and nothing moves when the island
 * takes over (issue 32's layout shifts). Without the attributes (no JavaScript, nothing stored) the
 * free variant without a plan shows.
 */
import type { ReactNode } from 'react';
import { ACCESS_LEVELS, type AccessLevel } from '#shared/access.ts';
import { STORAGE_KEYS } from '../../lib/browser/storage-keys.ts';

export type AccountGuess = { level: AccessLevel; withPlan: boolean } | 'stored';

// Written out whole so Tailwind finds every class.
const LEVEL_SHOWN: Record<AccessLevel, string> = {
  free: 'in-data-[account-level=subscriber]:hidden in-data-[account-level=premium]:hidden',
  subscriber: 'hidden in-data-[account-level=subscriber]:block',
  premium: 'hidden in-data-[account-level=premium]:block',
};

/** `children` for the guessed level, or for each level with only the stored one shown. */
export function ByLevel({ guess, children }: { guess: AccountGuess; children: (level: AccessLevel) => ReactNode }) {
  if (guess !== 'stored') return children(guess.level);
  return ACCESS_LEVELS.map((level) => (
    <div key={level} className={LEVEL_SHOWN[level]}>
      {children(level)}
    </div>
  ));
}

/** `children` for whether a plan is guessed, or for both with only the stored one shown. */
export function ByPlan({ guess, children }: { guess: AccountGuess; children: (withPlan: boolean) => ReactNode }) {
  if (guess !== 'stored') return children(guess.withPlan);
  return (
    <>
      <div className="in-data-[account-plan=true]:hidden">{children(false)}</div>
      <div className="hidden in-data-[account-plan=true]:block">{children(true)}</div>
    </>
  );
}

/** The inline script that copies the stored guess onto <html> (storage may throw: then nothing is guessed). */
export const GUESS_SCRIPT = `try{var d=document.documentElement.dataset;d.accountLevel=localStorage.getItem(${JSON.stringify(
  STORAGE_KEYS.accessLevel,
)})||'';d.accountPlan=localStorage.getItem(${JSON.stringify(STORAGE_KEYS.hasPlan)})||''}catch(e){}`;
