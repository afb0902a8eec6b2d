/**
 * The API keys tab (issue 35): an admin makes a key for an integration with a name and its scopes and
 * sees it once (with a copy button; only its hash is kept), and lists the keys with their prefix,
 * scopes, when made and last used, each with Revoke. A key acts as the admin who made it, on the
 * routes its scopes open.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { API_SCOPES, type ApiScope } from '#shared/members.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import { SMALL_BUTTON } from './MemberFilters.tsx';
import { createApiKey, fetchApiKeys, reason, revokeApiKey, type ApiKey, type NewApiKey } from './members-api.ts';

const SCOPE_LABEL: Record<ApiScope, string> = {
  'read:members': 'Read members',
  'write:members': 'Write members',
  'read:analytics': 'Read analytics',
};
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'Never');

export function ApiKeysPanel() {
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiScope[]>(['read:members']);
  const [made, setMade] = useState<NewApiKey | null>(null);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [round, setRound] = useState(0);
  const ids = useId();

  useEffect(() => {
    const controller = new AbortController();
    fetchApiKeys(controller.signal)
      .then((result) => (result.ok ? setKeys(result.data.keys) : setMessage(reason(result, 'The keys could not be loaded.'))))
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [round]);

  async function create(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const result = await createApiKey(name.trim(), scopes);
    setBusy(false);
    if (!result.ok) return setMessage(reason(result, 'The key could not be made.'));
    setMade(result.data);
    setMessage('');
    setName('');
    setRound((n) => n + 1);
  }

  async function revoke(key: ApiKey) {
    const result = await revokeApiKey(key.id);
    setMessage(result.ok ? `Key “${key.name}” revoked.` : reason(result, 'The key could not be revoked.'));
    if (result.ok) setRound((n) => n + 1);
  }

  async function copy() {
    if (!made) return;
    try {
      await navigator.clipboard.writeText(made.key);
      setMessage('Key copied.');
    } catch {
      setMessage('Copying was refused; select the key and copy it.');
    }
  }

  const live = keys?.filter((k) => !k.revokedAt) ?? [];
  return (
    <div className="space-y-6">
      <NewKeyForm
        ids={ids}
        name={name}
        scopes={scopes}
        busy={busy}
        onName={setName}
        onScopes={setScopes}
        onSubmit={(e) => void create(e)}
      />

      <div aria-live="polite" className="space-y-2">
        {made && <MadeKey made={made} onCopy={() => void copy()} />}
        {message && <p className="text-sm text-slate-700">{message}</p>}
      </div>

      <section aria-labelledby={`${ids}-list`}>
        <h3 id={`${ids}-list`} className="font-semibold text-slate-900">
          API keys
        </h3>
        {keys === null ? (
          <p className="mt-2 text-sm text-slate-600">Loading keys...</p>
        ) : live.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No keys yet.</p>
        ) : (
          <ul className="mt-2 space-y-2" aria-label="API keys">
            {live.map((k) => (
              <KeyRow key={k.id} apiKey={k} onRevoke={() => void revoke(k)} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

type NewKeyFormProps = {
  ids: string;
  name: string;
  scopes: ApiScope[];
  busy: boolean;
  onName: (name: string) => void;
  onScopes: (scopes: ApiScope[]) => void;
  onSubmit: (event: FormEvent) => void;
};

/** The form that makes a key: its name and the scopes it opens. */
function NewKeyForm({ ids, name, scopes, busy, onName, onScopes, onSubmit }: NewKeyFormProps) {
  return (
    <form onSubmit={onSubmit} className="space-y-3 rounded-2xl bg-white p-5 ring-1 ring-slate-200" aria-labelledby={`${ids}-new`}>
      <h3 id={`${ids}-new`} className="font-semibold text-slate-900">
        New API key
      </h3>
      <div className="max-w-sm">
        <label htmlFor={`${ids}-name`} className="block text-sm font-medium text-slate-700">
          Key name
        </label>
        <input id={`${ids}-name`} className={INPUT_CLASS} required maxLength={80} value={name} onChange={(e) => onName(e.target.value)} />
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Scopes</legend>
        <div className="flex flex-wrap gap-x-4">
          {API_SCOPES.map((s) => (
            <label key={s} className="flex min-h-9 items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                checked={scopes.includes(s)}
                onChange={(e) => onScopes(API_SCOPES.filter((x) => (x === s ? e.target.checked : scopes.includes(x))))}
              />
              {SCOPE_LABEL[s]}
            </label>
          ))}
        </div>
      </fieldset>
      <button
        type="submit"
        disabled={busy || !name.trim() || scopes.length === 0}
        className={`${SMALL_BUTTON} bg-brand-600 text-white hover:bg-brand-700`}
      >
        Create key
      </button>
    </form>
  );
}

/** The key just made, shown once with its copy button. */
function MadeKey({ made, onCopy }: { made: NewApiKey; onCopy: () => void }) {
  return (
    <div className="rounded-2xl bg-amber-50 p-4 ring-1 ring-amber-200">
      <p className="text-sm font-semibold text-slate-900">Key “{made.name}”: copy it now, it is not shown again.</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code className="break-all rounded bg-white px-2 py-1 text-sm ring-1 ring-slate-200" data-testid="new-api-key">
          {made.key}
        </code>
        <button type="button" onClick={onCopy} className={`${SMALL_BUTTON} ring-1 ring-slate-300`}>
          Copy key
        </button>
      </div>
    </div>
  );
}

/** One live key: its name, prefix, scopes and dates, with Revoke. */
function KeyRow({ apiKey: k, onRevoke }: { apiKey: ApiKey; onRevoke: () => void }) {
  return (
    <li aria-label={k.name} className="flex flex-wrap items-center justify-between gap-3 rounded-xl bg-white p-4 ring-1 ring-slate-200">
      <div className="text-sm text-slate-700">
        <p className="font-semibold text-slate-900">
          {k.name} <code className="font-normal text-slate-600">{k.prefix}…</code>
        </p>
        <p>{k.scopes.map((s) => SCOPE_LABEL[s]).join(', ')}</p>
        <p>
          Made {when(k.createdAt)} · Last used {when(k.lastUsedAt)}
        </p>
      </div>
      <button type="button" onClick={onRevoke} className={`${SMALL_BUTTON} text-red-700 ring-1 ring-red-200 hover:bg-red-50`}>
        Revoke<span className="sr-only"> {k.name}</span>
      </button>
    </li>
  );
}
