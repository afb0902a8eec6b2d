/**
 * The admin dashboard's Support tab (editors and admins; loaded when the tab opens): the queue of
 * members' requests, Priority (premium) first and then the oldest, filtered by status (Open by
 * default), each with who asked, who has it and the countdown to its first-response target (or by how
 * long it was missed; the answered ones say when). Opening one shows SupportRequest.tsx: the
 * conversation with internal notes, the reply form, the assignee and the status.
 */
import { useEffect, useState } from 'react';
import { STATUS_LABEL, type RequestStatus } from '#shared/support/targets.ts';
import { failureText, listRequests, type RequestSummary } from '../support/support-api.ts';
import { SupportRequest, TargetLine } from './SupportRequest.tsx';

type Filter = RequestStatus | 'all';
const FILTERS: { id: Filter; label: string }[] = [
  { id: 'open', label: 'Open' },
  { id: 'waiting', label: 'Waiting on member' },
  { id: 'closed', label: 'Closed' },
  { id: 'all', label: 'All' },
];

const dateOf = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function SupportPanel() {
  const [filter, setFilter] = useState<Filter>('open');
  const [requests, setRequests] = useState<RequestSummary[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [problem, setProblem] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [now, setNow] = useState(() => new Date());

  useEffect(() => {
    const controller = new AbortController();
    listRequests({ scope: 'all', status: filter }, controller.signal)
      .then((result) => {
        if (!result.ok) return setProblem(failureText(result, 'The requests could not be loaded.'));
        setProblem('');
        setRequests(result.data.requests);
        setNext(result.data.nextCursor);
        setNow(new Date());
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [filter, attempt]);

  // The countdowns move on every minute.
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);

  async function more() {
    if (!next || !requests) return;
    const result = await listRequests({ scope: 'all', status: filter, cursor: next });
    if (!result.ok) return setProblem(failureText(result, 'The requests could not be loaded.'));
    setRequests([...requests, ...result.data.requests]);
    setNext(result.data.nextCursor);
  }

  if (open)
    return (
      <SupportRequest
        id={open}
        onBack={() => {
          setOpen(null);
          setAttempt((n) => n + 1);
        }}
      />
    );

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 className="text-2xl font-bold text-slate-900">Support requests</h2>
        <button
          type="button"
          onClick={() => setAttempt((n) => n + 1)}
          className="min-h-11 rounded-lg px-4 py-2 text-sm font-semibold ring-1 ring-inset ring-slate-300"
        >
          Refresh
        </button>
      </div>
      <StatusFilter
        filter={filter}
        onFilter={(id) => {
          setRequests(null);
          setFilter(id);
        }}
      />
      <Queue problem={problem} requests={requests} now={now} onOpen={setOpen} />
      {next && (
        <button type="button" onClick={() => void more()} className="text-sm font-semibold text-brand-700 underline">
          Show more
        </button>
      )}
    </div>
  );
}

/** The statuses to show requests of (Open by default, or all). */
function StatusFilter({ filter, onFilter }: { filter: Filter; onFilter: (filter: Filter) => void }) {
  return (
    <div role="group" aria-label="Show requests" className="flex flex-wrap gap-2">
      {FILTERS.map((f) => (
        <button
          key={f.id}
          type="button"
          aria-pressed={filter === f.id}
          onClick={() => onFilter(f.id)}
          className={`min-h-11 rounded-full px-4 py-2 text-sm font-semibold ${filter === f.id ? 'bg-brand-600 text-white' : 'bg-slate-100 text-slate-700'}`}
        >
          {f.label}
        </button>
      ))}
    </div>
  );
}

/** One request in the queue: subject, who asked and when, its target, who has it, its priority and status. */
function QueueRow({ request: r, now, onOpen }: { request: RequestSummary; now: Date; onOpen: () => void }) {
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 p-4">
      <div className="min-w-0 grow basis-64">
        <button type="button" onClick={onOpen} className="text-left font-semibold text-brand-700 hover:underline wrap-anywhere">
          {r.subject}
        </button>
        <p className="text-sm text-slate-600 wrap-anywhere">
          {r.member ? `${r.member.name} <${r.member.email}>` : 'Deleted member'} · opened {dateOf(r.createdAt)} · {r.messageCount}{' '}
          {r.messageCount === 1 ? 'message' : 'messages'}
        </p>
        <p className="text-sm">
          <TargetLine request={r} now={now} />
          <span className="text-slate-600"> · {r.assignee ? `Assigned to ${r.assignee.name}` : 'Unassigned'}</span>
        </p>
      </div>
      <div className="flex gap-2 text-xs font-semibold">
        {r.priority && <span className="rounded-full bg-purple-100 px-3 py-1 text-purple-800">Priority</span>}
        <span className="rounded-full bg-slate-100 px-3 py-1 text-slate-700">{STATUS_LABEL[r.status]}</span>
      </div>
    </li>
  );
}

type QueueProps = { problem: string; requests: RequestSummary[] | null; now: Date; onOpen: (id: string) => void };

/** The requests of the chosen status, or why there are none to show. */
function Queue({ problem, requests, now, onOpen }: QueueProps) {
  return (
    <>
      {problem && (
        <p role="alert" className="text-red-700">
          {problem}
        </p>
      )}
      {!problem && requests === null && (
        <p role="status" className="text-slate-600">
          Loading requests...
        </p>
      )}
      {requests?.length === 0 && <p className="text-slate-600">No requests here.</p>}
      {requests && requests.length > 0 && (
        <ul aria-label="Support queue" className="divide-y divide-slate-200 rounded-2xl bg-white ring-1 ring-slate-200">
          {requests.map((r) => (
            <QueueRow key={r.id} request={r} now={now} onOpen={() => onOpen(r.id)} />
          ))}
        </ul>
      )}
    </>
  );
}
