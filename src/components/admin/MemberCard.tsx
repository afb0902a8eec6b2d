/**
 * One member's card in the Users tab: name and address, level, role, subscription and purchases, their
 * labels, where they came from at sign-up (referrer and UTM parameters) and when they were last seen;
 * a box to choose them for a bulk label change; the level and role form (admins only; the server
 * refuses an admin removing their own admin role) and their grants (MemberGrants.tsx).
 */
import { useId, useState, type FormEvent } from 'react';
import { accessLabel, ROLES, type AccessLevel, type Role } from '#shared/access.ts';
import { formatPlanAmount } from '#shared/payments/display.ts';
import { api, call } from '../../lib/browser/api.ts';
import { toast } from '../../lib/browser/toast.ts';
import { AccessLevelSelect } from '../forms/AccessLevelSelect.tsx';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import { MemberGrants } from './MemberGrants.tsx';
import { SMALL_BUTTON } from './MemberFilters.tsx';
import type { AdminMember } from './members-api.ts';

export const ROLE_LABEL: Record<Role, string> = { member: 'Member', editor: 'Editor', admin: 'Admin' };

/** Where the member came from, in a line: the campaign's UTM parameters, then the referrer. */
export function signupSource(signup: AdminMember['signup']): string {
  const utm = [signup.utmSource, signup.utmMedium, signup.utmCampaign].filter(Boolean).join(' / ');
  const from = signup.referrer ? `from ${signup.referrer}` : '';
  return [utm, from].filter(Boolean).join(', ') || 'Direct or unknown';
}

const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString() : 'never');

type MemberCardProps = {
  member: AdminMember;
  chosen: boolean;
  onChoose: (chosen: boolean) => void;
  onChanged: () => void;
};

export function MemberCard({ member, chosen, onChoose, onChanged }: MemberCardProps) {
  const [level, setLevel] = useState(member.accessLevel);
  const [role, setRole] = useState(member.role);
  const [saving, setSaving] = useState(false);
  const ids = useId();
  const changed = level !== member.accessLevel || role !== member.role;

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    const body = { ...(level !== member.accessLevel ? { accessLevel: level } : {}), ...(role !== member.role ? { role } : {}) };
    const result = await call((o) => api.admin.users[':id'].$patch({ param: { id: member.id }, json: body }, o));
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
        <label className="flex items-center gap-2 font-semibold text-slate-900">
          <input type="checkbox" checked={chosen} onChange={(e) => onChoose(e.target.checked)} aria-label={`Choose ${member.email}`} />
          {member.name?.trim() || member.email}
        </label>
        <p className="text-sm text-slate-600">{member.email}</p>
      </div>
      <p className="mt-1 text-sm text-slate-600" data-testid="member-summary">
        {accessLabel(member.accessLevel)} · {ROLE_LABEL[member.role]} ·{' '}
        {s ? `${s.status}${s.cancelAtPeriodEnd ? ' (canceling)' : ''}, ${formatPlanAmount(s.amount, s.interval)}` : 'No subscription'} ·{' '}
        {member.purchases.length === 1 ? '1 purchase' : `${member.purchases.length} purchases`}
      </p>
      <MemberDetails member={member} />
      <AccessForm
        ids={ids}
        email={member.email}
        level={level}
        role={role}
        changed={changed}
        saving={saving}
        onLevel={setLevel}
        onRole={setRole}
        onSubmit={(e) => void save(e)}
      />
      <MemberGrants member={member} onChanged={onChanged} />
    </li>
  );
}

/** The member's labels, sign-up (when and where from) and when they were last seen. */
function MemberDetails({ member }: { member: AdminMember }) {
  return (
    <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm text-slate-600 sm:grid-cols-[auto_1fr]" data-testid="member-details">
      <dt className="font-medium text-slate-700">Labels</dt>
      <dd>
        {member.labels.length === 0 ? (
          'None'
        ) : (
          <ul className="flex flex-wrap gap-1" aria-label={`Labels of ${member.email}`}>
            {member.labels.map((l) => (
              <li key={l} className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-800 ring-1 ring-brand-200">
                {l}
              </li>
            ))}
          </ul>
        )}
      </dd>
      <dt className="font-medium text-slate-700">Signed up</dt>
      <dd data-testid="member-signup">
        {day(member.createdAt)}, {signupSource(member.signup)}
      </dd>
      <dt className="font-medium text-slate-700">Last seen</dt>
      <dd>{day(member.lastSeenAt)}</dd>
    </dl>
  );
}

type AccessFormProps = {
  ids: string;
  email: string;
  level: AccessLevel;
  role: Role;
  /** Whether the level or the role differs from the member's. */
  changed: boolean;
  saving: boolean;
  onLevel: (level: AccessLevel) => void;
  onRole: (role: Role) => void;
  onSubmit: (event: FormEvent) => void;
};

/** The member's access level and role, saved together. */
function AccessForm({ ids, email, level, role, changed, saving, onLevel, onRole, onSubmit }: AccessFormProps) {
  return (
    <form onSubmit={onSubmit} className="mt-3 flex flex-wrap items-end gap-3" aria-label={`Access of ${email}`}>
      <div>
        <label htmlFor={`${ids}-level`} className="block text-xs font-medium text-slate-600">
          Access level
        </label>
        <AccessLevelSelect id={`${ids}-level`} value={level} onChange={onLevel} />
      </div>
      <div>
        <label htmlFor={`${ids}-role`} className="block text-xs font-medium text-slate-600">
          Role
        </label>
        <select id={`${ids}-role`} className={INPUT_CLASS} value={role} onChange={(e) => onRole(e.target.value as Role)}>
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
  );
}
