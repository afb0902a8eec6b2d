/**
 * What can be done with an issue once written: a test copy to yourself at a chosen level; sending
 * now (after a confirmation that names the audience); scheduling for a time in the editor's own
 * time zone (named beside the input; sent as the wall-clock time and the zone); cancelling a
 * schedule. Each saves unsaved changes first. Only drafts and scheduled issues can be sent or
 * scheduled; the server refuses the rest.
 */
import { useId, type RefObject } from 'react';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import type { Issue, PreviewLevel } from './newsletter-api.ts';
import { audienceText, editorZone, isEditable, PREVIEW_LEVELS, whenText } from './newsletter-format.ts';
import { useIssueActions, type IssueActionKind, type IssueActionsOptions } from './use-issue-actions.ts';

const BUTTON = 'min-h-11 rounded-lg px-5 py-2.5 text-sm font-semibold disabled:opacity-60';
const PRIMARY = `${BUTTON} bg-brand-600 text-white hover:bg-brand-700`;
const SECONDARY = `${BUTTON} text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50`;

export type NewsletterActionsProps = IssueActionsOptions;

export function NewsletterActions(props: NewsletterActionsProps) {
  const { issue } = props;
  const zone = editorZone();
  const actions = useIssueActions(props, zone);
  const { busy, dialog } = actions;
  const ids = useId();
  const editable = !issue || isEditable(issue.status);

  return (
    <section aria-labelledby={`${ids}-title`} className="space-y-6 border-t border-slate-200 pt-6">
      <h3 id={`${ids}-title`} className="text-lg font-bold text-slate-900">
        Send
      </h3>
      <TestCopy ids={ids} level={actions.testLevel} busy={busy} onLevel={actions.setTestLevel} onTest={() => void actions.test()} />

      {editable && (
        <ScheduleControls
          ids={ids}
          issue={issue}
          zone={zone}
          sendAt={actions.sendAt}
          error={actions.scheduleError}
          busy={busy}
          onSendAt={(value) => {
            actions.setSendAt(value);
            actions.setScheduleError('');
          }}
          onCancel={() => void actions.cancel()}
          onSchedule={() => void actions.schedule()}
          onSend={() => void actions.askToSend()}
        />
      )}

      <ConfirmSend
        ids={ids}
        dialog={dialog}
        confirming={actions.confirming}
        onClose={() => actions.setConfirming(null)}
        onSend={() => void actions.send()}
      />
    </section>
  );
}

type TestCopyProps = {
  ids: string;
  level: PreviewLevel;
  busy: IssueActionKind | null;
  onLevel: (level: PreviewLevel) => void;
  onTest: () => void;
};

/** A test copy to yourself, cut at the chosen level. */
function TestCopy({ ids, level: testLevel, busy, onLevel, onTest }: TestCopyProps) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor={`${ids}-test`} className="block text-sm font-medium text-slate-700">
          Test copy level
        </label>
        <select id={`${ids}-test`} className={INPUT_CLASS} value={testLevel} onChange={(e) => onLevel(e.target.value as PreviewLevel)}>
          {PREVIEW_LEVELS.map((l) => (
            <option key={l.id} value={l.id}>
              {l.label}
            </option>
          ))}
        </select>
      </div>
      <button type="button" className={SECONDARY} disabled={busy !== null} onClick={onTest}>
        {busy === 'test' ? 'Sending test...' : 'Send test to me'}
      </button>
    </div>
  );
}

type ScheduleControlsProps = {
  ids: string;
  issue: Issue | null;
  zone: string;
  sendAt: string;
  /** The server's complaint about the time, if any. */
  error: string;
  busy: IssueActionKind | null;
  onSendAt: (sendAt: string) => void;
  onCancel: () => void;
  onSchedule: () => void;
  onSend: () => void;
};

/** A draft's or scheduled issue's sending: the schedule (and its cancelling), or Send now. */
function ScheduleControls(props: ScheduleControlsProps) {
  const { ids, issue, zone, sendAt, error: scheduleError, busy, onSendAt, onCancel, onSchedule, onSend } = props;
  return (
    <>
      {issue?.status === 'scheduled' && (
        <div className="flex flex-wrap items-center gap-3 rounded-xl bg-amber-50 p-4 text-sm text-amber-950">
          <p data-testid="editor-schedule">{whenText(issue, zone)}</p>
          <button type="button" className={SECONDARY} disabled={busy !== null} onClick={onCancel}>
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
            onChange={(e) => onSendAt(e.target.value)}
            aria-invalid={scheduleError ? true : undefined}
            aria-describedby={scheduleError ? `${ids}-at-error` : `${ids}-at-hint`}
          />
        </div>
        <button type="button" className={SECONDARY} disabled={busy !== null || !sendAt} onClick={onSchedule}>
          {busy === 'schedule' ? 'Scheduling...' : issue?.status === 'scheduled' ? 'Reschedule' : 'Schedule'}
        </button>
        <button type="button" className={PRIMARY} disabled={busy !== null} onClick={onSend}>
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
  );
}

type ConfirmSendProps = {
  ids: string;
  dialog: RefObject<HTMLDialogElement | null>;
  /** The saved issue waiting for the confirmation. */
  confirming: Issue | null;
  onClose: () => void;
  onSend: () => void;
};

/** The confirmation Send now opens, naming the audience. */
function ConfirmSend({ ids, dialog, confirming, onClose, onSend }: ConfirmSendProps) {
  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${ids}-confirm`}
      onClose={onClose}
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
        <button type="button" className={PRIMARY} onClick={onSend}>
          Send to everyone
        </button>
      </div>
    </dialog>
  );
}
