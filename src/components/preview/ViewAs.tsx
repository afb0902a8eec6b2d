/**
 * "View as" on a deploy preview's /preview page: one click signs the reviewer in as a demo account
 * (free, subscriber, premium, editor) or out (visitor), so they see exactly what each level sees of
 * the branch's changed articles, lessons and downloads. Only rendered in preview mode.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { $auth, authClient } from '../../lib/browser/auth/client.ts';

export interface ViewAsProps {
  accounts: { email: string; label: string }[];
  password: string;
}

const BUTTON = 'rounded-lg border px-3 py-1.5 text-sm font-semibold disabled:opacity-60';

export default function ViewAs({ accounts, password }: ViewAsProps) {
  const auth = useStore($auth);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The auth store fills once the client has read the stored session.
  useEffect(() => void authClient(), []);
  const current =
    auth.status !== 'signed-in' ? 'Visitor' : (accounts.find((a) => a.email === auth.session.user.email)?.label ?? auth.session.user.email);

  async function viewAs(label: string, email?: string) {
    setBusy(label);
    setError(null);
    const client = authClient();
    const { error: failed } = email ? await client.auth.signInWithPassword({ email, password }) : await client.auth.signOut();
    setBusy(null);
    if (failed) setError(`Could not switch to ${label}: ${failed.message}`);
  }

  const choices = [{ label: 'Visitor' }, ...accounts];
  return (
    <div className="space-y-3">
      <p aria-live="polite" className="text-sm text-slate-700">
        Viewing as <strong data-viewing-as>{auth.status === 'loading' ? '…' : current}</strong>
      </p>
      <div className="flex flex-wrap gap-2" role="group" aria-label="View the site as">
        {choices.map((choice) => {
          const active = choice.label === current;
          return (
            <button
              key={choice.label}
              type="button"
              aria-pressed={active}
              disabled={busy !== null || auth.status === 'loading'}
              onClick={() => void viewAs(choice.label, 'email' in choice ? choice.email : undefined)}
              className={`${BUTTON} ${active ? 'border-brand-600 bg-brand-600 text-white' : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50'}`}
            >
              {busy === choice.label ? 'Switching…' : choice.label}
            </button>
          );
        })}
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
