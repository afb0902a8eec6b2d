/**
 * Labels in bulk in the Users tab (issue 35): a label added to or removed from the members the filter
 * picks, or only the chosen ones among them, after a confirmation that says how many. The outcome is
 * announced (aria-live) and the list reloads.
 */
import { useId, useState, type FormEvent } from 'react';
import { LabelName, type MemberFilter } from '#shared/members.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import { SMALL_BUTTON } from './MemberFilters.tsx';
import { reason, relabel, type Label } from './members-api.ts';

type Pending = { action: 'add' | 'remove'; label: string };

type MemberBulkLabelsProps = {
  filter: MemberFilter;
  /** How many members the filter picks. */
  total: number;
  /** The members chosen on the cards (empty: the whole filtered list). */
  chosen: string[];
  labels: Label[];
  onDone: () => void;
};

export function MemberBulkLabels({ filter, total, chosen, labels, onDone }: MemberBulkLabelsProps) {
  const [name, setName] = useState('');
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState('');
  const ids = useId();
  const count = chosen.length || total;
  const whom = `${count} ${count === 1 ? 'member' : 'members'}${chosen.length ? ' chosen' : ''}`;

  function ask(action: Pending['action']) {
    const parsed = LabelName.safeParse(name);
    setMessage('');
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? 'Type a label.');
    setProblem('');
    setPending({ action, label: parsed.data });
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (!pending) return;
    setBusy(true);
    const { action, label } = pending;
    const result = await relabel({
      filter,
      ...(chosen.length ? { userIds: chosen } : {}),
      add: action === 'add' ? [label] : [],
      remove: action === 'remove' ? [label] : [],
    });
    setBusy(false);
    setPending(null);
    if (!result.ok) return setProblem(reason(result, 'The labels could not be changed.'));
    const changed = action === 'add' ? result.data.added : result.data.removed;
    setMessage(`“${label}” ${action === 'add' ? 'added to' : 'removed from'} ${changed} of ${result.data.members} members.`);
    onDone();
  }

  return (
    <section aria-labelledby={`${ids}-title`} className="rounded-2xl bg-white p-4 ring-1 ring-slate-200">
      <h3 id={`${ids}-title`} className="text-sm font-semibold text-slate-900">
        Labels for the {whom}
      </h3>
      <LabelPicker
        ids={ids}
        name={name}
        labels={labels}
        problem={problem}
        disabled={busy || count === 0}
        onName={(value) => {
          setName(value);
          setPending(null);
        }}
        onAsk={ask}
      />
      {problem && (
        <p id={`${ids}-problem`} role="alert" className="mt-2 text-sm text-red-700">
          {problem}
        </p>
      )}
      {pending && (
        <ConfirmRelabel
          pending={pending}
          whom={whom}
          count={count}
          busy={busy}
          onSubmit={(e) => void confirm(e)}
          onCancel={() => setPending(null)}
        />
      )}
      <p aria-live="polite" className="mt-2 text-sm text-slate-700">
        {message}
      </p>
    </section>
  );
}

type ConfirmRelabelProps = {
  pending: Pending;
  /** Who the change reaches, in words ("3 members chosen"). */
  whom: string;
  count: number;
  busy: boolean;
  onSubmit: (event: FormEvent) => void;
  onCancel: () => void;
};

/** The confirmation a bulk change waits for, saying how many members it reaches. */
function ConfirmRelabel({ pending, whom, count, busy, onSubmit, onCancel }: ConfirmRelabelProps) {
  return (
    <form onSubmit={onSubmit} className="mt-3 flex flex-wrap items-center gap-3 rounded-xl bg-amber-50 p-3 ring-1 ring-amber-200">
      <p className="text-sm text-slate-800" role="status">
        {pending.action === 'add' ? 'Add' : 'Remove'} “{pending.label}” {pending.action === 'add' ? 'to' : 'from'} {whom}?
      </p>
      <button type="submit" disabled={busy} className={`${SMALL_BUTTON} bg-brand-600 text-white hover:bg-brand-700`}>
        {busy ? 'Changing...' : `Confirm for ${count}`}
      </button>
      <button type="button" onClick={onCancel} className={`${SMALL_BUTTON} ring-1 ring-slate-300`}>
        Cancel
      </button>
    </form>
  );
}

type LabelPickerProps = {
  ids: string;
  name: string;
  labels: Label[];
  problem: string;
  disabled: boolean;
  onName: (name: string) => void;
  onAsk: (action: Pending['action']) => void;
};

/** The label's name (known labels offered) and the two actions that ask for a confirmation. */
function LabelPicker({ ids, name, labels, problem, disabled, onName, onAsk }: LabelPickerProps) {
  return (
    <div className="mt-2 flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor={`${ids}-name`} className="block text-sm font-medium text-slate-700">
          Label
        </label>
        <input
          id={`${ids}-name`}
          list={`${ids}-known`}
          className={INPUT_CLASS}
          value={name}
          onChange={(e) => onName(e.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${ids}-problem` : undefined}
        />
        <datalist id={`${ids}-known`}>
          {labels.map((l) => (
            <option key={l.id} value={l.name} />
          ))}
        </datalist>
      </div>
      <button type="button" disabled={disabled} onClick={() => onAsk('add')} className={`${SMALL_BUTTON} ring-1 ring-slate-300`}>
        Add label
      </button>
      <button type="button" disabled={disabled} onClick={() => onAsk('remove')} className={`${SMALL_BUTTON} ring-1 ring-slate-300`}>
        Remove label
      </button>
    </div>
  );
}
