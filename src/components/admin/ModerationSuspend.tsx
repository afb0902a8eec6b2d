/**
 * Suspending a post's author from posting (a length and an optional reason, kept in the log; the
 * member can still read), or lifting their suspension. Staff cannot be suspended, so their posts
 * show no control.
 */
import { useId, useRef, useState, type RefObject } from 'react';
import { isStaff } from '#shared/access.ts';
import { MODERATION_LIMITS, SUSPENSION_CHOICES } from '#shared/community/moderation.ts';
import { toast } from '../../lib/browser/toast.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import { failureText, personLabel, setSuspension, type Person } from './moderation-api.ts';

const BUTTON = 'min-h-10 rounded-lg px-4 py-2 text-sm font-semibold disabled:opacity-60';
const SECONDARY = `${BUTTON} text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50`;
const DANGER = `${BUTTON} bg-red-700 text-white hover:bg-red-800`;

export function SuspendControl({ author, onDone }: { author: Person; onDone: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [choice, setChoice] = useState(1);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const ids = useId();
  if (isStaff(author.role)) return null;
  const name = personLabel(author);

  async function send(suspended: boolean) {
    setBusy(true);
    const days = SUSPENSION_CHOICES[choice]?.days ?? null;
    const body = suspended
      ? { suspended, reason: reason.trim(), ...(days ? { until: new Date(Date.now() + days * 86_400_000).toISOString() } : {}) }
      : { suspended };
    const result = await setSuspension(author.id, body);
    setBusy(false);
    if (!result.ok) {
      toast({ title: 'Error', description: failureText(result, 'The suspension could not be changed.'), variant: 'destructive' });
      return;
    }
    dialog.current?.close();
    const until = result.data.until ? `until ${new Date(result.data.until).toLocaleString()}` : 'until lifted';
    toast(
      suspended
        ? { title: 'Member suspended', description: `${name} cannot post ${until}.` }
        : { title: 'Suspension lifted', description: `${name} can post again.` },
    );
    onDone();
  }

  if (author.suspension)
    return (
      <button type="button" className={SECONDARY} disabled={busy} onClick={() => void send(false)}>
        {busy ? 'Lifting...' : 'Lift suspension'}
      </button>
    );

  return (
    <>
      <button type="button" className={SECONDARY} onClick={() => dialog.current?.showModal()}>
        Suspend author
      </button>
      <SuspendDialog
        ids={ids}
        dialog={dialog}
        name={name}
        choice={choice}
        reason={reason}
        busy={busy}
        onChoice={setChoice}
        onReason={setReason}
        onSuspend={() => void send(true)}
      />
    </>
  );
}

type SuspendDialogProps = {
  ids: string;
  dialog: RefObject<HTMLDialogElement | null>;
  /** The author, as the queue names them. */
  name: string;
  /** The index of the chosen length in SUSPENSION_CHOICES. */
  choice: number;
  reason: string;
  busy: boolean;
  onChoice: (choice: number) => void;
  onReason: (reason: string) => void;
  onSuspend: () => void;
};

/** The dialog that suspends the author: for how long, and why (for the log). */
function SuspendDialog({ ids, dialog, name, choice, reason, busy, onChoice, onReason, onSuspend }: SuspendDialogProps) {
  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${ids}-title`}
      className="m-auto w-full max-w-md rounded-2xl p-6 shadow-xl backdrop:bg-slate-900/50"
    >
      <form
        method="dialog"
        aria-labelledby={`${ids}-title`}
        onSubmit={(e) => {
          e.preventDefault();
          onSuspend();
        }}
        className="space-y-4"
      >
        <h4 id={`${ids}-title`} className="text-lg font-bold text-slate-900">
          Suspend {name} from posting?
        </h4>
        <p className="text-sm text-slate-700">They can still read the community; new threads, replies and comments are refused.</p>
        <div>
          <label htmlFor={`${ids}-length`} className="block text-sm font-medium text-slate-700">
            Suspended for
          </label>
          <select id={`${ids}-length`} className={INPUT_CLASS} value={choice} onChange={(e) => onChoice(Number(e.target.value))}>
            {SUSPENSION_CHOICES.map((c, i) => (
              <option key={c.label} value={i}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${ids}-reason`} className="block text-sm font-medium text-slate-700">
            Reason (for the log)
          </label>
          <textarea
            id={`${ids}-reason`}
            className={INPUT_CLASS}
            rows={3}
            maxLength={MODERATION_LIMITS.suspensionReason}
            value={reason}
            onChange={(e) => onReason(e.target.value)}
          />
        </div>
        <div className="flex flex-wrap justify-end gap-3">
          <button type="button" className={SECONDARY} autoFocus onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="submit" className={DANGER} disabled={busy}>
            {busy ? 'Suspending...' : 'Suspend'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
