/** What the account page's tabs share: card and button styles and the error toast. */
import { toast } from '../../lib/browser/toast.ts';

export const card = 'rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200';
export const button = 'min-h-11 rounded-lg px-5 py-2.5 text-sm font-semibold disabled:opacity-60';

/** The generic 'Error' toast. */
export function failed(description = 'Something went wrong. Please try again.') {
  toast({ title: 'Error', description, variant: 'destructive' });
}
