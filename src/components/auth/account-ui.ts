/** What the account page's tabs share: card and button styles, the JSON call and the error toast. */
import { toast } from '../../lib/browser/toast.ts';

export const card = 'rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200';
export const button = 'min-h-11 rounded-lg px-5 py-2.5 text-sm font-semibold disabled:opacity-60';

/** A JSON call to our API with the member's bearer token. */
export async function api(path: string, token: string, init: { method: string; body?: unknown }): Promise<Response> {
  return fetch(path, {
    method: init.method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
}

/** The generic 'Error' toast. */
export function failed(description = 'Something went wrong. Please try again.') {
  toast({ title: 'Error', description, variant: 'destructive' });
}
