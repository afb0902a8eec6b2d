/**
 * User Management (beyond the spec, which says "coming soon"): search members by email or name,
 * see each one's level, role, subscription, grants and purchases, change level (a comp) or role
 * (admins only; the server refuses an admin removing their own admin role), give and end comps
 * (MemberGrants.tsx), and the audit log of such changes.
 */
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { accessLabel, ROLES, type Role } from '#shared/access.ts';
import { api, call, withQuery, type ApiData } from '../../lib/browser/api.ts';
import { formatPlanAmount } from '#shared/payments/display.ts';
import { toast } from '../../lib/browser/toast.ts';
import { AccessLevelSelect } from '../forms/AccessLevelSelect.tsx';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import { MemberGrants } from './MemberGrants.tsx';

type MemberPage = ApiData<typeof api.admin.users.$get>;
export type AdminMember = MemberPage['users'][number];
type AuditEntry = ApiData<typeof api.admin.audit.$get>[number];

const SMALL_BUTTON = 'min-h-9 rounded-lg px-3 py-1.5 text-sm font-semibold disabled:opacity-60';
const ROLE_LABEL: Record<Role, string> = { member: 'Member', editor: 'Editor', admin: 'Admin' };

function describe(entry: AuditEntry): string {
  const { from, to, accessLevel } = entry.detail as { from?: unknown; to?: unknown; accessLevel?: unknown };
  const who = `by ${entry.actor.email ?? 'someone'}`;
  if (entry.action === 'comp.granted') return `${entry.target.email ?? 'a deleted member'}: comp of ${String(accessLevel)} given, ${who}`;
  if (entry.action === 'comp.ended') return `${entry.target.email ?? 'a deleted member'}: comp of ${String(accessLevel)} ended, ${who}`;
  const what = entry.action.startsWith('role') ? 'role' : 'access level';
  const change = typeof from === 'string' && typeof to === 'string' ? `${what} ${from} → ${to}` : entry.action;
  return `${entry.target.email ?? 'a deleted member'}: ${change}, by ${entry.actor.email ?? (entry.action.endsWith('.billing') || entry.action.endsWith('.grants') ? 'billing' : 'someone')}`;
}

function MemberRow({ member, onChanged }: { member: AdminMember; onChanged: () => void }) {
  const [level, setLevel] = useState(member.accessLevel);
  const [role, setRole] = useState(member.role);
  const [saving, setSaving] = useState(false);
  const ids = useId();
  const changed = level !== member.accessLevel || role !== member.role;

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    const body = { ...(level !== member.accessLevel ? { accessLevel: level } : {}), ...(role !== member.role ? { role } : {}) };
    const result = await call((o) => api.admin.users[':id'].$patch({ param: { id: member.id } }, o), { body });
    setSaving(false);
    if (result.ok) {
      toast({ title: 'Saved', description: `${member.email} is now ${accessLabel(level)}, ${ROLE_LABEL[role]}.` });
      onChanged();
    } else
      toast({ title: 'Error', description: result.kind === 'error' ? result.message : 'The change was refused.', variant: 'destructive' });
  }

  const s = member.subscription;
  return (
    <li aria-label={member.email} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold text-slate-900">{member.name?.trim() || member.email}</p>
        <p className="text-sm text-slate-600">{member.email}</p>
      </div>
      <p className="mt-1 text-sm text-slate-600" data-testid="member-summary">
        {accessLabel(member.accessLevel)} · {ROLE_LABEL[member.role]} ·{' '}
        {s ? `${s.status}${s.cancelAtPeriodEnd ? ' (canceling)' : ''}, ${formatPlanAmount(s.amount, s.interval)}` : 'No subscription'} ·{' '}
        {member.purchases.length === 1 ? '1 purchase' : `${member.purchases.length} purchases`}
      </p>
      <form onSubmit={(e) => void save(e)} className="mt-3 flex flex-wrap items-end gap-3" aria-label={`Access of ${member.email}`}>
        <div>
          <label htmlFor={`${ids}-level`} className="block text-xs font-medium text-slate-600">
            Access level
          </label>
          <AccessLevelSelect id={`${ids}-level`} value={level} onChange={setLevel} />
        </div>
        <div>
          <label htmlFor={`${ids}-role`} className="block text-xs font-medium text-slate-600">
            Role
          </label>
          <select id={`${ids}-role`} className={INPUT_CLASS} value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABEL[r]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={!changed || saving} className={`${SMALL_BUTTON} bg-brand-600 text-white hover:bg-brand-700`}>
          {saving ? 'Saving...' : 'Save'}
        </button>
      </form>
      <MemberGrants member={member} onChanged={onChanged} />
    </li>
  );
}

export function UsersPanel() {
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [round, setRound] = useState(0);
  const [result, setResult] = useState<MemberPage | null>(null);
  const [audit, setAudit] = useState<AuditEntry[] | null>(null);
  const [error, setError] = useState('');
  const ids = useId();

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    const query = { page: String(page), limit: '20', ...(search ? { q: search } : {}) };
    Promise.all([
      call((o) => api.admin.users.$get(withQuery(query), o), { signal }),
      call((o) => api.admin.audit.$get(withQuery({ limit: '20' }), o), { signal }),
    ])
      .then(([users, log]) => {
        if (users.ok) setResult(users.data);
        else setError(users.kind === 'error' ? users.message : 'The members could not be loaded.');
        if (log.ok) setAudit(log.data);
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [search, page, round]);

  const reload = useCallback(() => setRound((n) => n + 1), []);
  const pages = result ? Math.max(1, Math.ceil(result.total / result.limit)) : 1;

  return (
    <div className="space-y-6">
      <form
        role="search"
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          setResult(null);
          setError('');
          setPage(1);
          setSearch(query.trim());
        }}
      >
        <div className="min-w-64 flex-1">
          <label htmlFor={`${ids}-q`} className="block text-sm font-medium text-slate-700">
            Search members
          </label>
          <input
            id={`${ids}-q`}
            type="search"
            className={INPUT_CLASS}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Email or name"
          />
        </div>
        <button type="submit" className={`${SMALL_BUTTON} min-h-10 bg-brand-600 text-white hover:bg-brand-700`}>
          Search
        </button>
      </form>

      {error ? (
        <p role="alert" className="text-red-700">
          {error}
        </p>
      ) : !result ? (
        <p role="status" className="text-slate-600">
          Loading members...
        </p>
      ) : result.users.length === 0 ? (
        <p className="text-slate-600">No members found.</p>
      ) : (
        <>
          <p className="text-sm text-slate-600">{result.total === 1 ? '1 member' : `${result.total} members`}</p>
          <ul className="space-y-4" aria-label="Members">
            {result.users.map((m) => (
              <MemberRow key={`${m.id}-${m.accessLevel}-${m.role}`} member={m} onChanged={reload} />
            ))}
          </ul>
          {pages > 1 && (
            <nav aria-label="Member pages" className="flex items-center gap-3">
              <button
                type="button"
                className={`${SMALL_BUTTON} ring-1 ring-slate-300`}
                disabled={page <= 1}
                onClick={() => setPage((p) => p - 1)}
              >
                Previous
              </button>
              <span className="text-sm text-slate-600">
                Page {page} of {pages}
              </span>
              <button
                type="button"
                className={`${SMALL_BUTTON} ring-1 ring-slate-300`}
                disabled={page >= pages}
                onClick={() => setPage((p) => p + 1)}
              >
                Next
              </button>
            </nav>
          )}
        </>
      )}

      <section aria-labelledby={`${ids}-audit`} className="rounded-2xl bg-slate-50 p-5 ring-1 ring-slate-200">
        <h3 id={`${ids}-audit`} className="font-semibold text-slate-900">
          Audit log
        </h3>
        {audit === null ? (
          <p className="mt-2 text-sm text-slate-600">Loading...</p>
        ) : audit.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No changes yet.</p>
        ) : (
          <ol className="mt-2 space-y-1 text-sm text-slate-700" data-testid="audit-log">
            {audit.map((entry) => (
              <li key={entry.id}>
                <time dateTime={entry.createdAt} className="text-slate-500">
                  {new Date(entry.createdAt).toLocaleString()}
                </time>{' '}
                {describe(entry)}
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
