/**
 * The email dashboard (spec point 2, admins only): 'Email Dashboard' with Refresh, the 'Email Queue'
 * (default) and 'Recent Emails' tabs of ten each, 'Loading emails...', the two empty texts, and a
 * card per email: subject, status badge, To and From, the safe body preview, the created time; for
 * failed mail the error and Resend (a spinner on that card; the answer replaces the card), for
 * delivered mail 'Delivered at'. Beyond the spec, a queued card says why it is still waiting:
 * attempts made, the last error and when the next attempt is due (or that it is overdue, which
 * means no mail worker is picking mail up).
 */
import { useCallback, useEffect, useId, useState } from 'react';
import { previewHtml } from '../../lib/browser/email-preview.ts';
import { api, call, type ApiData } from '../../lib/browser/api.ts';
import type { EMAIL_POST_SEGMENT } from '../../../functions/email/routes.ts';
import { toast } from '../../lib/browser/toast.ts';

export type EmailRecord = ApiData<typeof api.emails.queue.$get>[number];
/** The resend route's id segment, spelt as the server's (a changed pattern fails to compile). */
const EMAIL: typeof EMAIL_POST_SEGMENT = ':segment{events|[0-9a-fA-F-]{36}}';

type Tab = 'queue' | 'recent';
const BADGE: Record<EmailRecord['status'], string> = {
  queued: 'bg-amber-100 text-amber-800',
  sent: 'bg-blue-100 text-blue-800',
  delivered: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-red-100 text-red-800',
};
const when = (iso: string) => new Date(iso).toLocaleString();

/** A span of time in words: 'less than a minute', '4 minutes', '2 hours'. */
function span(ms: number): string {
  const minutes = Math.floor(Math.abs(ms) / 60_000);
  if (minutes < 1) return 'less than a minute';
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `${Math.floor(minutes / 60)} hours`;
}

/** When a queued message goes out next, in words a person can act on. */
function nextAttempt(delivery: NonNullable<EmailRecord['delivery']>, now: number): string {
  if (delivery.sending) return 'Sending now';
  if (!delivery.nextAttemptAt) return 'Not scheduled';
  const due = new Date(delivery.nextAttemptAt).getTime();
  if (due > now) return `${when(delivery.nextAttemptAt)} (in ${span(due - now)})`;
  // A running worker takes due mail within seconds: a minute overdue means none is running.
  if (now - due >= 60_000)
    return `Overdue since ${when(delivery.nextAttemptAt)} (${span(now - due)}): no mail worker has picked it up. Check that the worker is running.`;
  return 'Due now';
}

/** `now`: when the list was loaded (times read relative to it; Refresh brings them up to date). */
function QueuedDetails({ delivery, now }: { delivery: NonNullable<EmailRecord['delivery']>; now: number }) {
  return (
    <dl
      data-testid="email-delivery"
      className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded-lg bg-amber-50 p-3 text-sm text-amber-950"
    >
      <dt className="font-medium">Attempts</dt>
      <dd>
        {delivery.attempts} of {delivery.maxAttempts}
      </dd>
      {delivery.lastError && (
        <>
          <dt className="font-medium">Last error</dt>
          <dd className="break-words">{delivery.lastError}</dd>
        </>
      )}
      <dt className="font-medium">Next attempt</dt>
      <dd>{nextAttempt(delivery, now)}</dd>
    </dl>
  );
}

function EmailCard({ email, now, onResent }: { email: EmailRecord; now: number; onResent: (fresh: EmailRecord) => void }) {
  const [resending, setResending] = useState(false);
  async function resend() {
    setResending(true);
    const result = await call((o) => api.emails[EMAIL].resend.$post({ param: { segment: email.id } }, o));
    setResending(false);
    if (result.ok) onResent(result.data);
    else
      toast({
        title: 'Error',
        description: result.kind === 'error' ? result.message : 'The email could not be resent.',
        variant: 'destructive',
      });
  }
  return (
    <li className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200" aria-label={email.subject}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h3 className="font-semibold text-slate-900">{email.subject}</h3>
        <span data-testid="email-status" className={`rounded-full px-2.5 py-0.5 text-xs font-semibold capitalize ${BADGE[email.status]}`}>
          {email.status}
        </span>
      </div>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 text-sm text-slate-600">
        <dt>To</dt>
        <dd className="truncate">{email.to}</dd>
        <dt>From</dt>
        <dd className="truncate">{email.from}</dd>
      </dl>
      <div
        data-testid="email-preview"
        className="mt-3 text-sm text-slate-700"
        dangerouslySetInnerHTML={{ __html: previewHtml(email.preview) }}
      />
      {email.status === 'queued' && email.delivery && <QueuedDetails delivery={email.delivery} now={now} />}
      <p className="mt-3 text-xs text-slate-500">Created {when(email.createdAt)}</p>
      {email.status === 'delivered' && email.deliveredAt && (
        <p className="text-xs text-slate-500">Delivered at {when(email.deliveredAt)}</p>
      )}
      {email.status === 'failed' && (
        <div className="mt-3 flex flex-wrap items-center gap-3">
          {email.errorMessage && <p className="text-sm text-red-700">{email.errorMessage}</p>}
          <button
            type="button"
            onClick={() => void resend()}
            disabled={resending}
            className="inline-flex min-h-9 items-center gap-2 rounded-lg px-3 py-1.5 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50 disabled:opacity-60"
          >
            {resending && (
              <span aria-hidden="true" className="h-3.5 w-3.5 animate-spin rounded-full border-2 border-brand-200 border-t-brand-600" />
            )}
            Resend
          </button>
        </div>
      )}
    </li>
  );
}

export function EmailDashboard() {
  const [tab, setTab] = useState<Tab>('queue');
  const [emails, setEmails] = useState<EmailRecord[] | null>(null);
  const [error, setError] = useState('');
  const [loadedAt, setLoadedAt] = useState(0);
  const [round, setRound] = useState(0);
  const ids = useId();

  useEffect(() => {
    const controller = new AbortController();
    call((o) => api.emails[tab].$get({ query: { limit: '10' } }, o), { signal: controller.signal })
      .then((result) => {
        if (result.ok) {
          setEmails(result.data);
          setLoadedAt(Date.now());
        } else setError(result.kind === 'error' ? result.message : 'The emails could not be loaded.');
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [tab, round]);

  // Back to 'Loading emails...' whenever a load starts.
  const reload = useCallback((next: () => void) => {
    setEmails(null);
    setError('');
    next();
  }, []);
  const refresh = () => reload(() => setRound((n) => n + 1));
  const replace = (fresh: EmailRecord) => setEmails((all) => all?.map((e) => (e.id === fresh.id ? fresh : e)) ?? null);

  return (
    <section aria-labelledby={`${ids}-title`} className="space-y-5">
      <div className="flex items-center justify-between gap-3">
        <h2 id={`${ids}-title`} className="text-2xl font-bold text-slate-900">
          Email Dashboard
        </h2>
        <button
          type="button"
          onClick={refresh}
          className="min-h-10 rounded-lg px-4 py-2 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50"
        >
          Refresh
        </button>
      </div>
      <EmailTabs ids={ids} tab={tab} onPick={(id) => id !== tab && reload(() => setTab(id))} />
      <div role="tabpanel" id={`${ids}-panel`} aria-labelledby={`${ids}-${tab}`}>
        <EmailList tab={tab} emails={emails} error={error} now={loadedAt} onResent={replace} />
      </div>
    </section>
  );
}

/** The two lists' tabs: the queue and the recent emails. */
function EmailTabs({ ids, tab, onPick }: { ids: string; tab: Tab; onPick: (tab: Tab) => void }) {
  return (
    <div role="tablist" aria-label="Emails" className="inline-flex rounded-lg bg-slate-100 p-1">
      {(
        [
          ['queue', 'Email Queue'],
          ['recent', 'Recent Emails'],
        ] as const
      ).map(([id, label]) => (
        <button
          key={id}
          type="button"
          role="tab"
          id={`${ids}-${id}`}
          aria-selected={tab === id}
          aria-controls={`${ids}-panel`}
          onClick={() => onPick(id)}
          className={`rounded-md px-4 py-2 text-sm font-semibold ${tab === id ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600'}`}
        >
          {label}
        </button>
      ))}
    </div>
  );
}

type EmailListProps = {
  tab: Tab;
  emails: EmailRecord[] | null;
  error: string;
  now: number;
  onResent: (fresh: EmailRecord) => void;
};

/** The chosen tab's emails, or why there are none yet. */
function EmailList({ tab, emails, error, now, onResent }: EmailListProps) {
  if (error)
    return (
      <p role="alert" className="text-red-700">
        {error}
      </p>
    );
  if (emails === null)
    return (
      <p role="status" className="text-slate-600">
        Loading emails...
      </p>
    );
  if (emails.length === 0) return <p className="text-slate-600">{tab === 'queue' ? 'No emails in the queue' : 'No recent emails found'}</p>;
  return (
    <ul className="space-y-4">
      {emails.map((email) => (
        <EmailCard key={email.id} email={email} now={now} onResent={onResent} />
      ))}
    </ul>
  );
}
