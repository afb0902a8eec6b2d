/**
 * The Webhooks tab (issue 35, admins only): register an endpoint (its URL and the events it gets),
 * its signing secret shown once with a copy button (announced to screen readers), the endpoints with
 * their delivery counts, each one disabled or enabled, rotated (the old secret keeps signing for a
 * day), sent a test event or deleted, and its delivery log with the status codes, attempts, errors
 * and a Replay button. The server checks everything again (the target policy among it).
 */
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENTS, type WebhookEvent } from '#shared/webhooks.ts';
import { api, call, type ApiData } from '../../lib/browser/api.ts';
import { toast } from '../../lib/browser/toast.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';

type Endpoint = ApiData<typeof api.webhooks.index.$get>[number];
type Delivery = ApiData<(typeof api.webhooks)[':id']['deliveries']['$get']>[number];
const BUTTON = 'min-h-9 rounded-lg px-3 py-1.5 text-sm font-semibold disabled:opacity-60';
const QUIET = `${BUTTON} text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50`;
const LABEL = 'block text-xs font-medium text-slate-600';
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

const failed = (result: { kind: string; message?: string }) =>
  toast({
    title: 'Error',
    description: result.kind === 'error' && result.message ? result.message : 'The change was refused.',
    variant: 'destructive',
  });

/** A secret shown this once, with a copy button; announced when it appears. */
function SecretNotice({ secret, onDone }: { secret: string | null; onDone: () => void }) {
  async function copy() {
    await navigator.clipboard?.writeText(secret ?? '').catch(() => undefined);
    toast({ title: 'Copied', description: 'The signing secret is on the clipboard.' });
  }
  return (
    <div aria-live="polite" role="status">
      {secret && (
        <div className="rounded-2xl bg-amber-50 p-5 ring-1 ring-amber-300">
          <p className="font-semibold text-slate-900">Signing secret: copy it now, it is not shown again.</p>
          <code className="mt-2 block break-all rounded bg-white p-2 text-sm" data-testid="webhook-secret">
            {secret}
          </code>
          <div className="mt-3 flex gap-2">
            <button type="button" className={`${BUTTON} bg-brand-600 text-white hover:bg-brand-700`} onClick={() => void copy()}>
              Copy secret
            </button>
            <button type="button" className={QUIET} onClick={onDone}>
              I have saved it
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

function NewEndpoint({ onMade }: { onMade: (secret: string) => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['member.created']);
  const [busy, setBusy] = useState(false);
  const ids = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const result = await call((o) => api.webhooks.index.$post({ json: { url, events } }, o));
    setBusy(false);
    if (!result.ok) return failed(result);
    setUrl('');
    onMade(result.data.secret);
  }

  return (
    <form
      onSubmit={(e) => void submit(e)}
      aria-label="New webhook endpoint"
      className="space-y-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
    >
      <div>
        <label htmlFor={`${ids}-url`} className={LABEL}>
          Endpoint URL (https)
        </label>
        <input
          id={`${ids}-url`}
          type="url"
          required
          className={INPUT_CLASS}
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://example.com/webhooks"
        />
      </div>
      <fieldset>
        <legend className={LABEL}>Events</legend>
        <div className="mt-1 grid gap-2 text-sm sm:grid-cols-2">
          {WEBHOOK_EVENTS.map((name) => (
            <label key={name} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={events.includes(name)}
                onChange={(e) => setEvents(e.target.checked ? [...events, name] : events.filter((x) => x !== name))}
              />
              <span>
                <code>{name}</code> · {WEBHOOK_EVENT_LABELS[name]}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" disabled={busy || events.length === 0} className={`${BUTTON} bg-brand-600 text-white hover:bg-brand-700`}>
        Add endpoint
      </button>
    </form>
  );
}

function DeliveryLog({ endpoint }: { endpoint: Endpoint }) {
  const [rows, setRows] = useState<Delivery[] | null>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    call((o) => api.webhooks[':id'].deliveries.$get({ param: { id: endpoint.id }, query: { limit: '20' } }, o), {
      signal: controller.signal,
    })
      .then((result) => result.ok && setRows(result.data))
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [endpoint.id, round]);

  async function replay(d: Delivery) {
    const result = await call((o) =>
      api.webhooks[':id'].deliveries[':deliveryId'].replay.$post({ param: { id: endpoint.id, deliveryId: d.id } }, o),
    );
    if (!result.ok) return failed(result);
    toast({ title: 'Queued again', description: `${d.type} goes out again with the same id.` });
    setRound((n) => n + 1);
  }

  if (rows === null)
    return (
      <p role="status" className="text-sm text-slate-600">
        Loading deliveries...
      </p>
    );
  if (rows.length === 0) return <p className="text-sm text-slate-600">No deliveries yet.</p>;
  return (
    <table className="mt-3 w-full text-left text-sm">
      <caption className="sr-only">Deliveries to {endpoint.url}, newest first</caption>
      <thead className="text-xs text-slate-600">
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Status</th>
          <th scope="col">HTTP</th>
          <th scope="col">Attempts</th>
          <th scope="col">When</th>
          <th scope="col">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((d) => (
          <tr key={d.id} className="border-t border-slate-100 align-top">
            <td className="py-1 pr-2">
              <code>{d.type}</code>
              <div className="text-xs text-slate-500">{d.eventId}</div>
            </td>
            <td className="py-1 pr-2">
              {d.status}
              {d.lastError && <div className="text-xs text-red-700">{d.lastError}</div>}
              {d.nextAttemptAt && <div className="text-xs text-slate-500">next {when(d.nextAttemptAt)}</div>}
            </td>
            <td className="py-1 pr-2">{d.lastStatus ?? '—'}</td>
            <td className="py-1 pr-2">{d.attempts}</td>
            <td className="py-1 pr-2">{when(d.deliveredAt ?? d.failedAt ?? d.createdAt)}</td>
            <td className="py-1">
              <button type="button" className={QUIET} onClick={() => void replay(d)} aria-label={`Replay ${d.type} ${d.eventId}`}>
                Replay
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function EndpointCard({ endpoint, onChange, onSecret }: { endpoint: Endpoint; onChange: () => void; onSecret: (s: string) => void }) {
  const [open, setOpen] = useState(false);
  const param = { id: endpoint.id };
  const run = async <R,>(
    send: () => Promise<{ ok: true; data: R } | { ok: false; kind: string; message?: string }>,
    done: (data: R) => void,
  ) => {
    const result = await send();
    if (!result.ok) return failed(result);
    done(result.data);
    onChange();
  };
  const toggle = () =>
    run(
      () => call((o) => api.webhooks[':id'].$patch({ param, json: { enabled: !endpoint.enabled } }, o)),
      () => toast({ title: endpoint.enabled ? 'Endpoint disabled' : 'Endpoint enabled', description: endpoint.url }),
    );
  const rotate = () =>
    window.confirm('Make a new signing secret? The current one keeps signing for 24 hours.') &&
    run(
      () => call((o) => api.webhooks[':id'].rotate.$post({ param }, o)),
      (data) => onSecret(data.secret),
    );
  const test = () =>
    run(
      () => call((o) => api.webhooks[':id'].test.$post({ param }, o)),
      () => toast({ title: 'Test event queued', description: endpoint.url }),
    );
  const remove = () =>
    window.confirm(`Delete the endpoint ${endpoint.url} and its delivery log?`) &&
    run(
      () => call((o) => api.webhooks[':id'].$delete({ param }, o)),
      () => toast({ title: 'Endpoint deleted', description: endpoint.url }),
    );
  const { stats } = endpoint;

  return (
    <li aria-label={endpoint.url} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="break-all font-semibold text-slate-900">
          {endpoint.url} {!endpoint.enabled && <span className="text-sm font-normal text-slate-500">(disabled)</span>}
        </p>
        <div className="flex flex-wrap gap-2">
          <button type="button" className={QUIET} onClick={() => void toggle()}>
            {endpoint.enabled ? 'Disable' : 'Enable'}
          </button>
          <button type="button" className={QUIET} onClick={() => void rotate()}>
            Rotate secret
          </button>
          <button type="button" className={QUIET} onClick={() => void test()}>
            Send test
          </button>
          <button type="button" className={`${BUTTON} text-red-700 ring-1 ring-red-200 hover:bg-red-50`} onClick={() => void remove()}>
            Delete
          </button>
        </div>
      </div>
      <p className="mt-1 text-sm text-slate-600">{endpoint.events.join(', ')}</p>
      <p className="mt-1 text-sm text-slate-600" data-testid="webhook-stats">
        {stats.delivered} delivered · {stats.queued} waiting · {stats.failed} failed · last attempt {when(stats.lastAttemptAt)}
        {endpoint.previousSecretUntil ? ` · old secret signs until ${when(endpoint.previousSecretUntil)}` : ''}
      </p>
      <button type="button" className={`${QUIET} mt-2`} aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide deliveries' : 'Show deliveries'}
      </button>
      {open && <DeliveryLog endpoint={endpoint} />}
    </li>
  );
}

export function WebhooksPanel() {
  const [endpoints, setEndpoints] = useState<Endpoint[] | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  const reload = useCallback(() => setRound((n) => n + 1), []);

  useEffect(() => {
    const controller = new AbortController();
    call((o) => api.webhooks.index.$get({}, o), { signal: controller.signal })
      .then((result) => result.ok && setEndpoints(result.data))
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [round]);

  const showSecret = (s: string) => {
    setSecret(s);
    reload();
  };

  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-600">
        Each request is signed as the Standard Webhooks specification describes (webhook-id, webhook-timestamp and webhook-signature
        headers), retried for 3 days, and carries the member&apos;s id, email and name.
      </p>
      <SecretNotice secret={secret} onDone={() => setSecret(null)} />
      <NewEndpoint onMade={showSecret} />
      {endpoints === null ? (
        <p role="status" className="text-slate-600">
          Loading endpoints...
        </p>
      ) : endpoints.length === 0 ? (
        <p className="text-slate-600">No webhook endpoints yet.</p>
      ) : (
        <ul aria-label="Webhook endpoints" className="space-y-3">
          {endpoints.map((e) => (
            <EndpointCard key={e.id} endpoint={e} onChange={reload} onSecret={showSecret} />
          ))}
        </ul>
      )}
    </div>
  );
}
