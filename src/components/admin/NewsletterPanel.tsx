/**
 * The Newsletter tab (editors and admins; the server checks every call): the issues, newest first,
 * with their status, audience, level, when they go or went out (in the editor's time zone) and the
 * live accounting, refreshed every few seconds while one is sending; New issue and each issue open
 * the editor. A status change is announced to screen readers.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { accessLabel } from '#shared/access.ts';
import { failureText, listIssues, type IssueSummary } from './newsletter-api.ts';
import {
  accountingText,
  audienceText,
  editorZone,
  isMoving,
  POLL_MS,
  STATUS_BADGE,
  STATUS_LABEL,
  STATUS_NOTE,
  statusChanges,
  whenText,
} from './newsletter-format.ts';
import { NewsletterEditor } from './NewsletterEditor.tsx';

const BUTTON = 'min-h-10 rounded-lg px-4 py-2 text-sm font-semibold';

function IssueRow({ issue, zone, onOpen }: { issue: IssueSummary; zone: string; onOpen: () => void }) {
  const when = whenText(issue, zone);
  const { stats } = issue;
  return (
    <li aria-label={issue.subject} className="space-y-2 px-5 py-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <button type="button" onClick={onOpen} className="text-left font-semibold text-slate-900 hover:underline">
          {issue.subject}
        </button>
        <span data-testid="issue-status" className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_BADGE[issue.status]}`}>
          {STATUS_LABEL[issue.status]}
        </span>
      </div>
      <p className="text-sm text-slate-600" data-testid="issue-meta">
        To {audienceText(issue.audience)} · {accessLabel(issue.accessLevel)} level
      </p>
      {when && (
        <p className="text-sm text-slate-700" data-testid="issue-when">
          {when}
        </p>
      )}
      {STATUS_NOTE[issue.status] && <p className="text-sm text-red-700">{STATUS_NOTE[issue.status]}</p>}
      {(issue.status === 'sending' || issue.status === 'sent') && (
        <p className="text-sm text-slate-700" data-testid="issue-stats">
          {accountingText(stats)} · {stats.bounced} bounced · {stats.unsubscribed} unsubscribed
        </p>
      )}
    </li>
  );
}

export function NewsletterPanel() {
  const [issues, setIssues] = useState<IssueSummary[] | null>(null);
  const [error, setError] = useState('');
  const [announcement, setAnnouncement] = useState('');
  /** The issue open in the editor: an id, 'new', or none (the list). */
  const [open, setOpen] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  const previous = useRef<IssueSummary[]>([]);
  const zone = editorZone();
  const ids = useId();

  useEffect(() => {
    if (open !== null) return;
    const controller = new AbortController();
    let timer: number | undefined;
    let loaded = false;
    const load = () =>
      listIssues(controller.signal)
        .then((result) => {
          if (!result.ok) {
            // A blip while watching a send keeps the list and tries again; a first load says why it failed.
            if (loaded) timer = window.setTimeout(() => void load(), POLL_MS);
            else setError(failureText(result, 'The issues could not be loaded.'));
            return;
          }
          const fresh = result.data.issues;
          const changed = statusChanges(previous.current, fresh);
          if (changed) setAnnouncement(changed);
          previous.current = fresh;
          setIssues(fresh);
          loaded = true;
          if (isMoving(fresh, Date.now())) timer = window.setTimeout(() => void load(), POLL_MS);
        })
        .catch(() => undefined); // aborted
    void load();
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [open, round]);

  const close = useCallback(() => {
    setIssues(null);
    setOpen(null);
    setRound((n) => n + 1);
  }, []);

  if (open !== null) return <NewsletterEditor key={open} issueId={open === 'new' ? null : open} onClose={close} />;

  return (
    <section aria-labelledby={`${ids}-title`} className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${ids}-title`} className="text-2xl font-bold text-slate-900">
          Newsletter
        </h2>
        <div className="flex gap-2">
          <button
            type="button"
            onClick={() => close()}
            className={`${BUTTON} text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50`}
          >
            Refresh
          </button>
          <button type="button" onClick={() => setOpen('new')} className={`${BUTTON} bg-brand-600 text-white hover:bg-brand-700`}>
            New issue
          </button>
        </div>
      </div>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      <IssueList issues={issues} error={error} zone={zone} onOpen={setOpen} />
    </section>
  );
}

type IssueListProps = { issues: IssueSummary[] | null; error: string; zone: string; onOpen: (id: string) => void };

/** The issues, newest first, or why there are none to show. */
function IssueList({ issues, error, zone, onOpen }: IssueListProps) {
  return error ? (
    <p role="alert" className="text-red-700">
      {error}
    </p>
  ) : issues === null ? (
    <p role="status" className="text-slate-600">
      Loading issues...
    </p>
  ) : issues.length === 0 ? (
    <p className="text-slate-600">No newsletter issues yet. Write the first with New issue.</p>
  ) : (
    <ul className="divide-y divide-slate-200 rounded-2xl bg-white ring-1 ring-slate-200" aria-label="Newsletter issues">
      {issues.map((issue) => (
        <IssueRow key={issue.id} issue={issue} zone={zone} onOpen={() => onOpen(issue.id)} />
      ))}
    </ul>
  );
}
