/**
 * What can be done with an issue once written: a test copy to yourself at a chosen level; sending
 * now (after a confirmation that names the audience); scheduling for a time in the editor's own
 * time zone (named beside the input; sent as the wall-clock time and the zone); cancelling a
 * schedule. Each saves unsaved changes first. Only drafts and scheduled issues can be sent or
 * scheduled; the server refuses the rest.
 */
import { useId, useRef, useState } from 'react';
import { toast } from '../../lib/browser/toast.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import {
  cancelSchedule,
  failureText,
  scheduleIssue,
  sendNow,
  sendTest,
  type Issue,
  type IssueSummary,
  type PreviewLevel,
} from './newsletter-api.ts';
import {
  audienceText,
  defaultSendAt,
  editorZone,
  isEditable,
  localInputValue,
  PREVIEW_LEVELS,
  whenText,
  zonedTime,
} from './newsletter-format.ts';

const BUTTON = 'min-h-11 rounded-lg px-5 py-2.5 text-sm font-semibold disabled:opacity-60';
const PRIMARY = `${BUTTON} bg-brand-600 text-white hover:bg-brand-700`;
const SECONDARY = `${BUTTON} text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50`;

type Failure = Parameters<typeof failureText>[0];
const failed = (result: Failure, fallback: string): void => {
  toast({ title: 'Error', description: failureText(result, fallback), variant: 'destructive' });
};

export interface NewsletterActionsProps {
  issue: Issue | null;
  save: () => Promise<Issue | null>;
  onChange: (issue: IssueSummary) => void;
  onSent: () => void;
}

export function NewsletterActions({ issue, save, onChange, onSent }: NewsletterActionsProps) {
  const zone = editorZone();
  const [testLevel, setTestLevel] = useState<PreviewLevel>('premium');
  const [sendAt, setSendAt] = useState(() => (issue?.sendAt ? localInputValue(issue.sendAt, zone) : defaultSendAt(new Date(), zone)));
  const [scheduleError, setScheduleError] = useState('');
  const [busy, setBusy] = useState<'test' | 'send' | 'schedule' | 'cancel' | null>(null);
  const [confirming, setConfirming] = useState<Issue | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const ids = useId();
  const editable = !issue || isEditable(issue.status);

  /** Saves, then runs `act` on the saved issue with `kind` marked busy. */
  async function withSaved(kind: NonNullable<typeof busy>, act: (saved: Issue) => Promise<void>) {
    setBusy(kind);
    const saved = await save();
    if (saved) await act(saved);
    setBusy(null);
  }

  const test = () =>
    withSaved('test', async (saved) => {
      const result = await sendTest(saved.id, testLevel);
      if (!result.ok) return failed(result, 'The test could not be sent.');
      const level = PREVIEW_LEVELS.find((l) => l.id === testLevel)!.label;
      toast({ title: 'Test sent', description: `A ${level} copy of "${saved.subject}" is on its way to ${result.data.to}.` });
    });

  const askToSend = () =>
    withSaved('send', async (saved) => {
      setConfirming(saved);
      dialog.current?.showModal();
    });

  async function send() {
    const saved = confirming;
    dialog.current?.close();
    if (!saved) return;
    setBusy('send');
    const result = await sendNow(saved.id);
    setBusy(null);
    if (!result.ok) return failed(result, 'The issue could not be sent.');
    toast({ title: 'Sending', description: `"${saved.subject}" is going out to ${audienceText(saved.audience)}.` });
    onSent();
  }

  const schedule = () =>
    withSaved('schedule', async (saved) => {
      setScheduleError('');
      const result = await scheduleIssue(saved.id, { sendAt, timeZone: zone });
      if (!result.ok) {
        const fields = result.kind === 'error' ? result.fields : undefined;
        const message = fields?.sendAt?.[0] ?? fields?.timeZone?.[0];
        if (message) return setScheduleError(message);
        return failed(result, 'The issue could not be scheduled.');
      }
      onChange(result.data.issue);
      const when = result.data.issue.sendAt ? `${zonedTime(result.data.issue.sendAt, zone)} (${zone})` : sendAt;
      toast({ title: 'Scheduled', description: `"${saved.subject}" goes out on ${when}.` });
    });

  async function cancel() {
    if (!issue) return;
    setBusy('cancel');
    const result = await cancelSchedule(issue.id);
    setBusy(null);
    if (!result.ok) return failed(result, 'The schedule could not be cancelled.');
    onChange(result.data.issue);
    toast({ title: 'Schedule cancelled', description: `"${issue.subject}" is a draft again.` });
  }

  return (
    <section aria-labelledby={`${ids}-title`} className="space-y-6 border-t border-slate-200 pt-6">
      <h3 id={`${ids}-title`} className="text-lg font-bold text-slate-900">
        Send
      </h3>
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={`${ids}-test`} className="block text-sm font-medium text-slate-700">
            Test copy level
          </label>
          <select
            id={`${ids}-test`}
            className={INPUT_CLASS}
            value={testLevel}
            onChange={(e) => setTestLevel(e.target.value as PreviewLevel)}
          >
            {PREVIEW_LEVELS.map((l) => (
              <option key={l.id} value={l.id}>
                {l.label}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className={SECONDARY} disabled={busy !== null} onClick={() => void test()}>
          {busy === 'test' ? 'Sending test...' : 'Send test to me'}
        </button>
      </div>

      {editable && (
        <>
          {issue?.status === 'scheduled' && (
            <div className="flex flex-wrap items-center gap-3 rounded-xl bg-amber-50 p-4 text-sm text-amber-950">
              <p data-testid="editor-schedule">{whenText(issue, zone)}</p>
              <button type="button" className={SECONDARY} disabled={busy !== null} onClick={() => void cancel()}>
                {busy === 'cancel' ? 'Cancelling...' : 'Cancel schedule'}
              </button>
            </div>
          )}
          <div className="flex flex-wrap items-end gap-3">
            <div>
              <label htmlFor={`${ids}-at`} className="block text-sm font-medium text-slate-700">
                Send at ({zone})
              </label>
              <input
                id={`${ids}-at`}
                type="datetime-local"
                className={INPUT_CLASS}
                value={sendAt}
                onChange={(e) => {
                  setSendAt(e.target.value);
                  setScheduleError('');
                }}
                aria-invalid={scheduleError ? true : undefined}
                aria-describedby={scheduleError ? `${ids}-at-error` : `${ids}-at-hint`}
              />
            </div>
            <button type="button" className={SECONDARY} disabled={busy !== null || !sendAt} onClick={() => void schedule()}>
              {busy === 'schedule' ? 'Scheduling...' : issue?.status === 'scheduled' ? 'Reschedule' : 'Schedule'}
            </button>
            <button type="button" className={PRIMARY} disabled={busy !== null} onClick={() => void askToSend()}>
              {busy === 'send' ? 'Sending...' : 'Send now'}
            </button>
          </div>
          {scheduleError ? (
            <p id={`${ids}-at-error`} className="text-sm text-red-700">
              {scheduleError}
            </p>
          ) : (
            <p id={`${ids}-at-hint`} className="text-sm text-slate-500">
              In your time zone, {zone}. Within the next year.
            </p>
          )}
        </>
      )}

      <dialog
        ref={dialog}
        aria-labelledby={`${ids}-confirm`}
        onClose={() => setConfirming(null)}
        className="m-auto max-w-md rounded-2xl p-6 shadow-xl backdrop:bg-slate-900/50"
      >
        <h4 id={`${ids}-confirm`} className="text-lg font-bold text-slate-900">
          Send this issue now?
        </h4>
        <p className="mt-3 text-sm text-slate-700">
          “{confirming?.subject}” goes now to {confirming ? audienceText(confirming.audience) : ''}. Each recipient gets one copy, cut at
          their level. This cannot be undone.
        </p>
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <button type="button" className={SECONDARY} autoFocus onClick={() => dialog.current?.close()}>
            Keep editing
          </button>
          <button type="button" className={PRIMARY} onClick={() => void send()}>
            Send to everyone
          </button>
        </div>
      </dialog>
    </section>
  );
}
