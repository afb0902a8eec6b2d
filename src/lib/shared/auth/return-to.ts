/**
 * Where a visitor returns after signing in, and how that target rides along every hop on the way:
 * the sign-in and sign-up pages' links to each other and to the password reset, the confirmation and
 * sign-in mails (`emailRedirectTo`) and the reset mail. Every mailed link lands on /signin, where
 * supabase-js reads the session (or the error) from the fragment and the page moves on to the target,
 * so a failed link always meets the page that explains it. Targets go through the site's one redirect
 * rule (`localPath`). Pure apart from `keepReturnLinks`, which the auth pages run.
 */
import { localPath } from '../redirect.ts';

/** The safe local `redirect` of a query string, if any. */
export function returnTarget(search: string): string | undefined {
  return localPath(new URLSearchParams(search).get('redirect'));
}

/** `path` with `target` as its `redirect` parameter; `path` alone without a safe target. */
export function withReturn(path: string, target: string | undefined): string {
  const safe = localPath(target);
  return safe ? `${path}?redirect=${encodeURIComponent(safe)}` : path;
}

/** The page a mailed confirmation or sign-in link lands on: /signin, which moves on to `target`. */
export function mailLanding(origin: string, target: string | undefined): string {
  return `${origin}${withReturn('/signin', target)}`;
}

/** Whether `target` is the page that sets a new password (a reset link or code brought the visitor). */
export function isResetTarget(target: string | undefined): boolean {
  return target !== undefined && /^\/reset-password(?:[?#]|$)/.test(target);
}

/** Where a reset link lands: /signin, then the new-password page, then `target`. */
export function resetLanding(origin: string, target: string | undefined): string {
  return mailLanding(origin, withReturn('/reset-password', target));
}

/** Gives the page's `a[data-keep-return]` links this page's `redirect`, so switching pages keeps the target. */
export function keepReturnLinks(): void {
  const target = returnTarget(window.location.search);
  if (!target) return;
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-keep-return]')) {
    link.href = withReturn(link.pathname, target);
  }
}
