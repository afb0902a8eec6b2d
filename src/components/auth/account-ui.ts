/** What the account page's tabs share: card and button styles and the error toast. */
import { toast } from '../../lib/browser/toast.ts';

export const card = 'rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200';
export const button = 'min-h-11 rounded-lg px-5 py-2.5 text-sm font-semibold disabled:opacity-60';

/** The generic 'Error' toast. */
export function failed(description = 'Something went wrong. Please try again.') {
  toast({ title: 'Error', description, variant: 'destructive' });
}

let leaving = false;

/**
 * Signs out and goes home (Sign Out, a deleted account): the page's own redirect of a signed-out
 * visitor to /signin is held back meanwhile, so it never races (and aborts) this navigation.
 */
export async function signOutAndLeave(signOut: () => Promise<unknown>): Promise<void> {
  leaving = true;
  await signOut();
  window.location.assign('/');
}

/** Whether the page is leaving after its own sign-out (signOutAndLeave). */
export const isLeaving = () => leaving;
