/**
 * /account/support: a member's support requests. Signed in only (the island sends visitors to
 * /signin and back). Without `?request=` it lists the member's own requests (newest first, more on
 * demand) beside the form that opens a new one with an optional attachment; with it, one request's
 * conversation and the reply form. The first-response target of the member's level is said up front.
 * Browser only.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { MEMBER_STATUS_LABEL, responseTargetText } from '#shared/support/targets.ts';
import { $auth, authClient } from '../../lib/browser/auth/client.ts';
import { TextField } from '../forms/TextField.tsx';
import { CardFailure } from '../auth/AccountCardStates.tsx';
import { Conversation } from './Conversation.tsx';
import { AttachmentField, MessageBox, PRIMARY, ReplyForm } from './MessageFields.tsx';
import {
  failureText,
  getRequest,
  listRequests,
  openRequest,
  type Conversation as ConversationData,
  type RequestSummary,
} from './support-api.ts';

const card = 'rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200';
const dateOf = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
const dueOf = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const pageFor = (id: string) => `/account/support?request=${encodeURIComponent(id)}`;

export default function SupportDesk() {
  const auth = useStore($auth);
  useEffect(() => {
    authClient();
  }, []);
  useEffect(() => {
    if (auth.status === 'signed-out')
      window.location.replace(`/signin?redirect=${encodeURIComponent(location.pathname + location.search)}`);
  }, [auth.status]);
  if (auth.status !== 'signed-in') {
    return (
      <div className="flex justify-center py-24" role="status">
        <span className="h-8 w-8 animate-spin rounded-full border-4 border-brand-200 border-t-brand-600" />
        <span className="sr-only">Loading your support requests…</span>
      </div>
    );
  }
  const level = auth.profile?.accessLevel ?? 'free';
  const requestId = new URLSearchParams(location.search).get('request');
  return (
    <div className="space-y-8">
      <header>
        <p className="text-sm font-semibold text-brand-700">
          <a href="/account" className="hover:underline">
            My Account
          </a>
        </p>
        <h1 className="mt-1 text-3xl font-bold text-slate-900">Support</h1>
        <p className="mt-2 text-slate-600">{responseTargetText(level)}.</p>
      </header>
      {requestId ? <RequestView id={requestId} /> : <Overview />}
    </div>
  );
}

function Overview() {
  const [requests, setRequests] = useState<RequestSummary[] | null | 'error'>(null);
  const [next, setNext] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    listRequests({ scope: 'own' }, controller.signal)
      .then((result) => {
        setRequests(result.ok ? result.data.requests : 'error');
        setNext(result.ok ? result.data.nextCursor : null);
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [attempt]);

  async function more() {
    if (!next || !Array.isArray(requests)) return;
    const result = await listRequests({ scope: 'own', cursor: next });
    if (!result.ok) return;
    setRequests([...requests, ...result.data.requests]);
    setNext(result.data.nextCursor);
  }

  return (
    <div className="grid gap-8 lg:grid-cols-2">
      <NewRequestForm />
      <section aria-labelledby="support-requests-heading" className={card}>
        <h2 id="support-requests-heading" className="text-lg font-semibold text-slate-900">
          Your requests
        </h2>
        {requests === null && <div aria-hidden="true" className="mt-4 h-12 animate-pulse rounded-lg bg-slate-100" />}
        {requests === 'error' && <CardFailure message="We could not load your requests." onRetry={() => setAttempt((n) => n + 1)} />}
        {Array.isArray(requests) && requests.length === 0 && <p className="mt-4 text-slate-600">You have not asked us anything yet.</p>}
        {Array.isArray(requests) && requests.length > 0 && (
          <ul className="mt-4 divide-y divide-slate-200">
            {requests.map((r) => (
              <li key={r.id} className="py-3">
                <a href={pageFor(r.id)} className="font-semibold text-brand-700 hover:underline wrap-anywhere">
                  {r.subject}
                </a>
                <p className="text-sm text-slate-600">
                  {MEMBER_STATUS_LABEL[r.status]} · opened {dateOf(r.createdAt)}
                </p>
              </li>
            ))}
          </ul>
        )}
        {next && (
          <button type="button" onClick={() => void more()} className="mt-4 text-sm font-semibold text-brand-700 underline">
            Show older requests
          </button>
        )}
      </section>
    </div>
  );
}

function NewRequestForm() {
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState('');
  const [sending, setSending] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSending(true);
    setProblem('');
    const result = await openRequest({ subject: subject.trim(), message: message.trim() }, fileRef.current?.files?.[0]);
    if (!result.ok) {
      setSending(false);
      return setProblem(failureText(result, 'Your request could not be sent.'));
    }
    window.location.assign(pageFor(result.data.id));
  }

  return (
    <form onSubmit={submit} aria-label="New support request" className={`${card} flex flex-col gap-4`}>
      <h2 className="text-lg font-semibold text-slate-900">Ask for help</h2>
      <TextField label="Subject" required maxLength={150} value={subject} onChange={(e) => setSubject(e.target.value)} />
      <MessageBox label="Message" value={message} onChange={setMessage} />
      <AttachmentField fileRef={fileRef} onProblem={setProblem} />
      {problem && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {problem}
        </p>
      )}
      <div>
        <button type="submit" disabled={sending || !subject.trim() || !message.trim()} className={PRIMARY}>
          {sending ? 'Sending…' : 'Send request'}
        </button>
      </div>
    </form>
  );
}

function RequestView({ id }: { id: string }) {
  const [data, setData] = useState<ConversationData | null | 'missing' | 'error'>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    getRequest(id, controller.signal)
      .then((result) => setData(result.ok ? result.data : result.kind === 'not-found' ? 'missing' : 'error'))
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [id, attempt]);

  const back = (
    <a href="/account/support" className="text-sm font-semibold text-brand-700 hover:underline">
      All your requests
    </a>
  );
  if (data === null) return <div aria-hidden="true" className="h-40 animate-pulse rounded-2xl bg-slate-100" />;
  if (data === 'missing') return <p className="text-slate-600">We could not find that request. {back}</p>;
  if (data === 'error') return <CardFailure message="We could not load this request." onRetry={() => setAttempt((n) => n + 1)} />;
  const { request, messages } = data;
  return (
    <article aria-labelledby="support-request-heading" className="space-y-6">
      {back}
      <div>
        <h2 id="support-request-heading" className="text-2xl font-bold text-slate-900 wrap-anywhere">
          {request.subject}
        </h2>
        <p className="mt-1 text-sm text-slate-600" data-testid="request-status">
          {MEMBER_STATUS_LABEL[request.status]}
          {request.priority && ' · Priority'}
          {!request.firstResponseAt && request.status !== 'closed' && ` · first response by ${dueOf(request.respondBy)}`}
        </p>
      </div>
      <Conversation requestId={request.id} messages={messages} viewer="member" />
      <section aria-labelledby="support-reply-heading" className={card}>
        <h3 id="support-reply-heading" className="mb-4 text-lg font-semibold text-slate-900">
          {request.status === 'closed' ? 'Reply to reopen this request' : 'Reply'}
        </h3>
        <ReplyForm requestId={request.id} onSent={() => setAttempt((n) => n + 1)} />
      </section>
    </article>
  );
}
