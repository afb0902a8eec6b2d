/**
 * A member's card in the Users tab, its grants (issue 34): what their level rests on now and later
 * (subscription runs, trials, offers, comps, gifts), each comp with its note and an End button, and
 * a form to give a comp until a date (or open-ended) with a note. Every change is audited on the server.
 */
import { useId, useState, type FormEvent } from 'react';
import { accessLabel } from '#shared/access.ts';
import { formatPaymentDate } from '#shared/payments/display.ts';
import { api, call } from '../../lib/browser/api.ts';
import { toast } from '../../lib/browser/toast.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import type { AdminMember } from './members-api.ts';

const SMALL_BUTTON = 'min-h-9 rounded-lg px-3 py-1.5 text-sm font-semibold disabled:opacity-60';
const SOURCE: Record<AdminMember['grants'][number]['source'], string> = {
  subscription: 'Subscription',
  trial: 'Trial',
  offer: 'Subscription at an offer price',
  comp: 'Comp',
  gift: 'Gift',
  purchase: 'Purchase',
};

const refused = (result: { kind: string; message?: string }) =>
  toast({
    title: 'Error',
    description: result.kind === 'error' && result.message ? result.message : 'The change was refused.',
    variant: 'destructive',
  });

function span(g: AdminMember['grants'][number]): string {
  const from = g.active ? '' : ` from ${formatPaymentDate(g.startsAt)}`;
  return `${from}${g.endsAt ? ` until ${formatPaymentDate(g.endsAt)}` : ', no end date'}`;
}

export function MemberGrants({ member, onChanged }: { member: AdminMember; onChanged: () => void }) {
  const [level, setLevel] = useState<CompLevel>('premium');
  const [until, setUntil] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const ids = useId();

  async function give(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const body = {
      accessLevel: level,
      ...(until ? { until: new Date(`${until}T23:59:59Z`).toISOString() } : {}),
      ...(note.trim() ? { note: note.trim() } : {}),
    };
    const result = await call((o) => api.comps[':id'].comps.$post({ param: { id: member.id }, json: body }, o));
    setBusy(false);
    if (!result.ok) return refused(result);
    toast({
      title: 'Comp given',
      description: `${member.email} has ${accessLabel(level)}${until ? ` until ${formatPaymentDate(until)}` : ''}.`,
    });
    onChanged();
  }

  async function end(compId: string) {
    setBusy(true);
    const result = await call((o) => api.comps[':id'].comps[':compId'].$delete({ param: { id: member.id, compId } }, o));
    setBusy(false);
    if (!result.ok) return refused(result);
    toast({ title: 'Comp ended', description: `${member.email}'s comp has ended.` });
    onChanged();
  }

  return (
    <div className="mt-3 border-t border-slate-100 pt-3">
      <h3 className="text-sm font-semibold text-slate-800">Grants</h3>
      <GrantList member={member} busy={busy} onEnd={(compId) => void end(compId)} />
      <CompForm
        ids={ids}
        email={member.email}
        level={level}
        until={until}
        note={note}
        busy={busy}
        onLevel={setLevel}
        onUntil={setUntil}
        onNote={setNote}
        onSubmit={(e) => void give(e)}
      />
    </div>
  );
}

/** What the member's level rests on, now and later; a comp can be ended here. */
function GrantList({ member, busy, onEnd }: { member: AdminMember; busy: boolean; onEnd: (compId: string) => void }) {
  return member.grants.length === 0 ? (
    <p className="mt-1 text-sm text-slate-600">
      None: {member.role === 'member' ? 'a free member' : 'staff read at Premium by their role'}.
    </p>
  ) : (
    <ul className="mt-1 space-y-1 text-sm text-slate-700">
      {member.grants.map((g) => (
        <li key={g.id} className="flex flex-wrap items-center gap-2">
          <span>
            {accessLabel(g.accessLevel)} · {SOURCE[g.source]}
            {span(g)}
            {g.note ? ` · “${g.note}”` : ''}
          </span>
          {g.source === 'comp' && (
            <button
              type="button"
              disabled={busy}
              onClick={() => onEnd(g.id)}
              className={`${SMALL_BUTTON} text-red-700 ring-1 ring-red-200 hover:bg-red-50`}
            >
              End comp
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

type CompLevel = 'subscriber' | 'premium';

type CompFormProps = {
  ids: string;
  email: string;
  level: CompLevel;
  until: string;
  note: string;
  busy: boolean;
  onLevel: (level: CompLevel) => void;
  onUntil: (until: string) => void;
  onNote: (note: string) => void;
  onSubmit: (event: FormEvent) => void;
};

/** The form that gives a comp: its level, until when (or open-ended) and a note. */
function CompForm({ ids, email, level, until, note, busy, onLevel, onUntil, onNote, onSubmit }: CompFormProps) {
  return (
    <form onSubmit={onSubmit} className="mt-2 flex flex-wrap items-end gap-3" aria-label={`Give ${email} a comp`}>
      <div>
        <label htmlFor={`${ids}-level`} className="block text-xs font-medium text-slate-600">
          Comp level
        </label>
        <select id={`${ids}-level`} className={INPUT_CLASS} value={level} onChange={(e) => onLevel(e.target.value as CompLevel)}>
          <option value="subscriber">Subscriber</option>
          <option value="premium">Premium</option>
        </select>
      </div>
      <div>
        <label htmlFor={`${ids}-until`} className="block text-xs font-medium text-slate-600">
          Until (empty: no end)
        </label>
        <input id={`${ids}-until`} type="date" className={INPUT_CLASS} value={until} onChange={(e) => onUntil(e.target.value)} />
      </div>
      <div className="min-w-48 flex-1">
        <label htmlFor={`${ids}-note`} className="block text-xs font-medium text-slate-600">
          Note
        </label>
        <input id={`${ids}-note`} className={INPUT_CLASS} maxLength={500} value={note} onChange={(e) => onNote(e.target.value)} />
      </div>
      <button type="submit" disabled={busy} className={`${SMALL_BUTTON} bg-brand-600 text-white hover:bg-brand-700`}>
        Give comp
      </button>
    </form>
  );
}
