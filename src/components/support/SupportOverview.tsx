/**
 * /account/support without `?request=`: the member's own requests (newest first, more on demand)
 * beside the form that opens a new one with an optional attachment, under the page's header (the
 * first-response target of the member's level). `SupportSkeleton` is the page before it knows the
 * member: the same header, the form (disabled) and the list's room, each the size of what follows for
 * a member with no requests yet; support.astro also renders it as the static placeholder. Browser only.
 */
import { startTransition, useEffect, useRef, useState, type FormEvent } from 'react';
import type { AccessLevel } from '#shared/access.ts';
import { MEMBER_STATUS_LABEL, responseTargetText } from '#shared/support/targets.ts';
import { CardFailure } from '../auth/AccountCardStates.tsx';
import { Reserved } from '../content/gated/LoadStates.tsx';
import { TextField } from '../forms/TextField.tsx';
import { AttachmentField, MessageBox, PRIMARY } from './MessageFields.tsx';
import { failureText, listRequests, openRequest, type RequestSummary } from './support-api.ts';

export const card = 'rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200';
const dateOf = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
export const pageFor = (id: string) => `/account/support?request=${encodeURIComponent(id)}`;

/** The page's header; without a level (not known yet) the target's line keeps its room. */
export function SupportHeader({ level, guess = 'free' }: { level: AccessLevel | undefined; guess?: AccessLevel }) {
  const target = <p className="mt-2 text-slate-600">{responseTargetText(level ?? guess)}.</p>;
  return (
    <header>
      <p className="text-sm font-semibold text-brand-700">
        <a href="/account" className="hover:underline">
          My Account
        </a>
      </p>
      <h1 className="mt-1 text-3xl font-bold text-slate-900">Support</h1>
      {/* The same for every member, so the page's placeholder shows it at once: the page's main text is
          there with the first paint, not once the member's level has loaded. */}
      <p className="mt-2 text-slate-600">
        Ask us about your account, your plan or our services. Each request keeps its replies here, and we email you when we answer.
      </p>
      {level ? target : <Reserved label="Loading your support requests…">{target}</Reserved>}
    </header>
  );
}

/** The page before the member is known (see the file's head); `guess`: the level last seen here. */
export function SupportSkeleton({ guess }: { guess?: AccessLevel }) {
  return (
    <div className="space-y-8">
      <SupportHeader level={undefined} {...(guess ? { guess } : {})} />
      <div className="grid gap-8 lg:grid-cols-2">
        <NewRequestForm disabled />
        <RequestList requests={null} />
      </div>
    </div>
  );
}

const NONE_YET = <p className="mt-4 text-slate-600">You have not asked us anything yet.</p>;

function RequestList({
  requests,
  onRetry,
  more,
}: {
  requests: RequestSummary[] | null | 'error';
  onRetry?: () => void;
  more?: () => void;
}) {
  return (
    <section aria-labelledby="support-requests-heading" className={card}>
      <h2 id="support-requests-heading" className="text-lg font-semibold text-slate-900">
        Your requests
      </h2>
      {requests === null && <Reserved>{NONE_YET}</Reserved>}
      {requests === 'error' && <CardFailure message="We could not load your requests." onRetry={() => onRetry?.()} />}
      {Array.isArray(requests) && requests.length === 0 && NONE_YET}
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
      {more && (
        <button type="button" onClick={more} className="mt-4 text-sm font-semibold text-brand-700 underline">
          Show older requests
        </button>
      )}
    </section>
  );
}

export function Overview() {
  const [requests, setRequests] = useState<RequestSummary[] | null | 'error'>(null);
  const [next, setNext] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    listRequests({ scope: 'own' }, controller.signal)
      .then((result) => {
        startTransition(() => {
          setRequests(result.ok ? result.data.requests : 'error');
          setNext(result.ok ? result.data.nextCursor : null);
        });
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
      <RequestList requests={requests} onRetry={() => setAttempt((n) => n + 1)} {...(next ? { more: () => void more() } : {})} />
    </div>
  );
}

/** `disabled`: drawn before the page can send it (the skeleton). */
function NewRequestForm({ disabled }: { disabled?: boolean }) {
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
      {/* A fieldset without a border or padding: the fields lay out as they would without it. */}
      <fieldset disabled={disabled} className="contents">
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
      </fieldset>
    </form>
  );
}
