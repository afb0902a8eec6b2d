/**
 * One support request in the admin dashboard's Support tab: who asked (their level then, Priority for
 * premium), the first-response target's countdown, the assignee (any editor or admin, or nobody) and
 * the status, the conversation with internal notes marked, and the reply form (a reply is mailed to
 * the member; an internal note never is). Browser only.
 */
import { useEffect, useId, useState } from 'react';
import { accessLabel } from '#shared/access.ts';
import { countdown, REQUEST_STATUSES, STATUS_LABEL, type RequestStatus } from '#shared/support/targets.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import { Conversation } from '../support/Conversation.tsx';
import { ReplyForm } from '../support/MessageFields.tsx';
import {
  failureText,
  getRequest,
  listStaff,
  updateRequest,
  type Conversation as ConversationData,
  type RequestSummary,
  type StaffMember,
} from '../support/support-api.ts';

const dateOf = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The target line of a request in the queue: the countdown until staff's first reply, then when it came. */
export function TargetLine({ request, now }: { request: RequestSummary; now: Date }) {
  if (request.firstResponseAt) return <span className="text-slate-600">First response {dateOf(request.firstResponseAt)}</span>;
  if (request.status === 'closed') return <span className="text-slate-600">Closed without a reply</span>;
  const left = countdown(request.respondBy, now);
  return <span className={left.overdue ? 'font-semibold text-red-700' : 'text-slate-700'}>{left.text}</span>;
}

export function SupportRequest({ id, onBack }: { id: string; onBack: () => void }) {
  const [data, setData] = useState<ConversationData | null>(null);
  const [staff, setStaff] = useState<StaffMember[]>([]);
  const [problem, setProblem] = useState('');
  const [attempt, setAttempt] = useState(0);
  const assigneeId = useId();
  const statusId = useId();

  useEffect(() => {
    const controller = new AbortController();
    getRequest(id, controller.signal)
      .then((result) => (result.ok ? setData(result.data) : setProblem(failureText(result, 'The request could not be loaded.'))))
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [id, attempt]);
  useEffect(() => {
    const controller = new AbortController();
    listStaff(controller.signal)
      .then((result) => result.ok && setStaff(result.data.staff))
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, []);

  async function change(patch: RequestPatch) {
    const result = await updateRequest(id, patch);
    if (!result.ok) return setProblem(failureText(result, 'The request could not be changed.'));
    setProblem('');
    setData(result.data);
  }

  const back = (
    <button type="button" onClick={onBack} className="text-sm font-semibold text-brand-700 hover:underline">
      Back to the queue
    </button>
  );
  if (!data)
    return (
      <div className="space-y-4">
        {back}
        {problem ? (
          <p role="alert" className="text-red-700">
            {problem}
          </p>
        ) : (
          <p role="status" className="text-slate-600">
            Loading the request...
          </p>
        )}
      </div>
    );
  const { request, messages } = data;
  return (
    <article aria-labelledby="support-request-title" className="space-y-6">
      {back}
      <RequestHeader request={request} />
      <RequestControls
        ids={{ assignee: assigneeId, status: statusId }}
        request={request}
        staff={staff}
        onChange={(patch) => void change(patch)}
      />
      {problem && (
        <p role="alert" className="text-red-700">
          {problem}
        </p>
      )}
      <Conversation requestId={request.id} messages={messages} viewer="staff" />
      <section aria-labelledby="support-staff-reply" className="rounded-2xl bg-white p-6 ring-1 ring-slate-200">
        <h3 id="support-staff-reply" className="mb-4 text-lg font-semibold text-slate-900">
          Reply to the member
        </h3>
        <ReplyForm requestId={request.id} staff onSent={() => setAttempt((n) => n + 1)} />
      </section>
    </article>
  );
}

type Request = ConversationData['request'];
/** A change to the request: its status, its assignee, or both. */
type RequestPatch = { status?: RequestStatus; assigneeId?: string | null };

/** The request's subject, who asked (their level then, Priority for premium) and its target. */
function RequestHeader({ request }: { request: Request }) {
  return (
    <header>
      <h2 id="support-request-title" className="text-2xl font-bold text-slate-900 wrap-anywhere">
        {request.subject}
      </h2>
      <p className="mt-1 text-sm text-slate-600 wrap-anywhere">
        {request.member ? `${request.member.name} <${request.member.email}>` : 'Deleted member'} · {accessLabel(request.level)}
        {request.priority && (
          <span className="ml-2 rounded-full bg-purple-100 px-3 py-0.5 text-xs font-semibold text-purple-800">Priority</span>
        )}
      </p>
      <p className="mt-1 text-sm">
        <TargetLine request={request} now={new Date()} />
      </p>
    </header>
  );
}

type RequestControlsProps = {
  ids: { assignee: string; status: string };
  request: Request;
  staff: StaffMember[];
  onChange: (patch: RequestPatch) => void;
};

/** Who has the request (any editor or admin, or nobody) and its status. */
function RequestControls({ ids, request, staff, onChange }: RequestControlsProps) {
  return (
    <div className="flex flex-wrap gap-4">
      <div>
        <label htmlFor={ids.assignee} className="block text-sm font-medium text-slate-700">
          Assignee
        </label>
        <select
          id={ids.assignee}
          value={request.assignee?.id ?? ''}
          onChange={(e) => onChange({ assigneeId: e.target.value || null })}
          className={`${INPUT_CLASS} min-h-11 w-auto`}
        >
          <option value="">Nobody</option>
          {request.assignee && !staff.some((s) => s.id === request.assignee!.id) && (
            <option value={request.assignee.id}>{request.assignee.name}</option>
          )}
          {staff.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={ids.status} className="block text-sm font-medium text-slate-700">
          Status
        </label>
        <select
          id={ids.status}
          value={request.status}
          onChange={(e) => onChange({ status: e.target.value as RequestStatus })}
          className={`${INPUT_CLASS} min-h-11 w-auto`}
        >
          {REQUEST_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABEL[s]}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
