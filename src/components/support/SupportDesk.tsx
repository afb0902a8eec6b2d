/**
 * /account/support: a member's support requests. Signed in only (the island sends visitors to
 * /signin and back). Without `?request=` it lists the member's own requests beside the form that
 * opens a new one (SupportOverview.tsx); with it, one request's conversation and the reply form. The
 * first-response target of the member's level is said up front: until the level is known the page is
 * its skeleton (SupportOverview.tsx), then it draws itself once. Browser only.
 */
import { useStore } from '@nanostores/react';
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { MEMBER_STATUS_LABEL } from '#shared/support/targets.ts';
import { $auth, startAuthClient } from '../../lib/browser/auth/client.ts';
import { warmIntl } from '../../lib/browser/intl-warm.ts';
import { storedAccessLevel } from '../../lib/browser/storage-keys.ts';
import { CardFailure } from '../auth/AccountCardStates.tsx';
import { Conversation } from './Conversation.tsx';
import { ReplyForm } from './MessageFields.tsx';
import { getRequest, type Conversation as ConversationData } from './support-api.ts';
import { card, Overview, SupportHeader, SupportSkeleton } from './SupportOverview.tsx';

const dueOf = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export default function SupportDesk() {
  // Deferred: the desk drawn once the level is known renders in slices, not as one long task.
  const live = useStore($auth);
  const auth = useDeferredValue(live);
  useEffect(() => {
    warmIntl(); // for the requests' dates, while the profile loads
    return startAuthClient();
  }, []);
  useEffect(() => {
    if (live.status === 'signed-out')
      window.location.replace(`/signin?redirect=${encodeURIComponent(location.pathname + location.search)}`);
  }, [live.status]);
  // The member's level names the target up front: the page waits for it, then draws itself once.
  // One element, so the urgent renders of each session event skip it (as on the account page).
  const skeleton = useMemo(() => <SupportSkeleton guess={storedAccessLevel() ?? 'free'} />, []);
  if (auth.status !== 'signed-in' || auth.profile === undefined) return skeleton;
  const level = auth.profile?.accessLevel ?? 'free';
  const requestId = new URLSearchParams(location.search).get('request');
  return (
    <div className="space-y-8">
      <SupportHeader level={level} />
      {requestId ? <RequestView id={requestId} /> : <Overview />}
    </div>
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
