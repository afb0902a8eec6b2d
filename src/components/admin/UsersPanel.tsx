/**
 * User Management (beyond the spec, which says "coming soon"; issue 35 made it a business list): the
 * filter form (MemberFilters.tsx), saved segments (SegmentsBar.tsx), labels in bulk
 * (MemberBulkLabels.tsx), the members file's export and import (MembersFile.tsx), the filtered members'
 * cards (MemberCard.tsx: level, role, subscription, grants, labels, sign-up source, last seen, the
 * level and role form and comps), and the audit log of changes.
 */
import { useCallback, useEffect, useId, useState, type Dispatch, type SetStateAction } from 'react';
import type { MemberFilter } from '#shared/members.ts';
import { api, call, type ApiData } from '../../lib/browser/api.ts';
import { MemberBulkLabels } from './MemberBulkLabels.tsx';
import { MemberCard } from './MemberCard.tsx';
import { MemberFilters, SMALL_BUTTON } from './MemberFilters.tsx';
import { fetchLabels, fetchMembers, fetchSegments, reason, type Label, type MemberPage, type Segment } from './members-api.ts';
import { MembersFile } from './MembersFile.tsx';
import { SegmentsBar } from './SegmentsBar.tsx';

export type { AdminMember } from './members-api.ts';
type AuditEntry = ApiData<typeof api.admin.audit.$get>[number];

function describe(entry: AuditEntry): string {
  const { from, to, accessLevel } = entry.detail as { from?: unknown; to?: unknown; accessLevel?: unknown };
  const who = `by ${entry.actor.email ?? 'someone'}`;
  if (entry.action === 'comp.granted') return `${entry.target.email ?? 'a deleted member'}: comp of ${String(accessLevel)} given, ${who}`;
  if (entry.action === 'comp.ended') return `${entry.target.email ?? 'a deleted member'}: comp of ${String(accessLevel)} ended, ${who}`;
  const what = entry.action.startsWith('role') ? 'role' : 'access level';
  const change = typeof from === 'string' && typeof to === 'string' ? `${what} ${from} → ${to}` : entry.action;
  return `${entry.target.email ?? 'a deleted member'}: ${change}, by ${entry.actor.email ?? (entry.action.endsWith('.billing') || entry.action.endsWith('.grants') ? 'billing' : 'someone')}`;
}

function AuditLog({ audit }: { audit: AuditEntry[] | null }) {
  const ids = useId();
  return (
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
  );
}

function Pages({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav aria-label="Member pages" className="flex items-center gap-3">
      <button type="button" className={`${SMALL_BUTTON} ring-1 ring-slate-300`} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span className="text-sm text-slate-600">
        Page {page} of {pages}
      </span>
      <button type="button" className={`${SMALL_BUTTON} ring-1 ring-slate-300`} disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

export function UsersPanel() {
  const [filter, setFilter] = useState<MemberFilter>({});
  // Bumped when a segment replaces the filter, so the form shows the segment's fields.
  const [formRound, setFormRound] = useState(0);
  const [page, setPage] = useState(1);
  const [round, setRound] = useState(0);
  const [result, setResult] = useState<MemberPage | null>(null);
  const [audit, setAudit] = useState<AuditEntry[] | null>(null);
  const [labels, setLabels] = useState<Label[]>([]);
  const [segments, setSegments] = useState<Segment[] | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [error, setError] = useState('');

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    Promise.all([fetchMembers(filter, page, signal), call((o) => api.admin.audit.$get({ query: { limit: '20' } }, o), { signal })])
      .then(([users, log]) => {
        if (users.ok) setResult(users.data);
        else setError(reason(users, 'The members could not be loaded.'));
        if (log.ok) setAudit(log.data);
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [filter, page, round]);

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    Promise.all([fetchLabels(signal), fetchSegments(signal)])
      .then(([l, s]) => {
        if (l.ok) setLabels(l.data.labels);
        if (s.ok) setSegments(s.data.segments);
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [round]);

  const reload = useCallback(() => setRound((n) => n + 1), []);
  const apply = useCallback((next: MemberFilter, fromSegment = false) => {
    setResult(null);
    setError('');
    setPage(1);
    setChosen([]);
    setFilter(next);
    if (fromSegment) setFormRound((n) => n + 1);
  }, []);

  return (
    <div className="space-y-6">
      <MemberFilters key={formRound} initial={filter} labels={labels} onApply={(f) => apply(f)} />
      <SegmentsBar filter={filter} segments={segments} onApply={(f) => apply(f, true)} onChanged={reload} />
      <div className="grid gap-4 lg:grid-cols-2">
        <MemberBulkLabels filter={filter} total={result?.total ?? 0} chosen={chosen} labels={labels} onDone={reload} />
        <MembersFile filter={filter} onImported={reload} />
      </div>

      <MemberList error={error} result={result} chosen={chosen} page={page} onChoose={setChosen} onPage={setPage} onChanged={reload} />

      <AuditLog audit={audit} />
    </div>
  );
}

type MemberListProps = {
  error: string;
  result: MemberPage | null;
  /** The members chosen for a bulk label change. */
  chosen: string[];
  page: number;
  onChoose: Dispatch<SetStateAction<string[]>>;
  onPage: (page: number) => void;
  onChanged: () => void;
};

/** The page of members the filter picks, with its count and the pages, or why there are none to show. */
function MemberList({ error, result, chosen, page, onChoose, onPage, onChanged }: MemberListProps) {
  const pages = result ? Math.max(1, Math.ceil(result.total / result.limit)) : 1;
  return error ? (
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
      <p className="text-sm text-slate-600" data-testid="member-count">
        {result.total === 1 ? '1 member' : `${result.total} members`}
        {chosen.length > 0 && `, ${chosen.length} chosen`}
      </p>
      <ul className="space-y-4" aria-label="Members">
        {result.users.map((m) => (
          <MemberCard
            key={`${m.id}-${m.accessLevel}-${m.role}`}
            member={m}
            chosen={chosen.includes(m.id)}
            onChoose={(yes) => onChoose((c) => (yes ? [...c, m.id] : c.filter((id) => id !== m.id)))}
            onChanged={onChanged}
          />
        ))}
      </ul>
      <Pages page={page} pages={pages} onPage={onPage} />
    </>
  );
}
