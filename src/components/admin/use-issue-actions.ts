/**
 * What the Newsletter editor's Send section does (NewsletterActions.tsx): a test copy at a chosen
 * level, sending now after a confirmation, scheduling in the editor's time zone and cancelling a
 * schedule, each after saving unsaved changes. Browser only.
 */
import { useRef, useState } from 'react';
import { toast } from '../../lib/browser/toast.ts';
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
import { audienceText, defaultSendAt, localInputValue, PREVIEW_LEVELS, zonedTime } from './newsletter-format.ts';

type Failure = Parameters<typeof failureText>[0];
const failed = (result: Failure, fallback: string): void => {
  toast({ title: 'Error', description: failureText(result, fallback), variant: 'destructive' });
};

export interface IssueActionsOptions {
  issue: Issue | null;
  /** Saves unsaved changes; null when they could not be saved. */
  save: () => Promise<Issue | null>;
  onChange: (issue: IssueSummary) => void;
  onSent: () => void;
}

/** The action under way, if any: every button waits for it. */
export type IssueActionKind = 'test' | 'send' | 'schedule' | 'cancel';

/** The Send section's state and actions for `issue`, with times in the editor's `zone`. */
export function useIssueActions({ issue, save, onChange, onSent }: IssueActionsOptions, zone: string) {
  const [testLevel, setTestLevel] = useState<PreviewLevel>('premium');
  const [sendAt, setSendAt] = useState(() => (issue?.sendAt ? localInputValue(issue.sendAt, zone) : defaultSendAt(new Date(), zone)));
  const [scheduleError, setScheduleError] = useState('');
  const [busy, setBusy] = useState<IssueActionKind | null>(null);
  const [confirming, setConfirming] = useState<Issue | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);

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

  return {
    busy,
    testLevel,
    setTestLevel,
    sendAt,
    setSendAt,
    scheduleError,
    setScheduleError,
    confirming,
    setConfirming,
    dialog,
    test,
    askToSend,
    send,
    schedule,
    cancel,
  };
}
