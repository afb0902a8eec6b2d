/**
 * Mail about new replies in this thread, on or off, for a member who follows it (started it or
 * replied): `PUT /api/community/threads/{id}/mute`. The global switch is on the account page. The
 * button is as wide as its longer label whichever shows, and `MuteButtonSpace` keeps its room where
 * it may appear (a thread page's head, rendered before the reader is known), so it moves nothing.
 */
import { useState } from 'react';
import { toast } from '../../lib/browser/toast.ts';
import { setMuted } from './community-api.ts';

const LOOK =
  'inline-flex min-h-11 items-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:opacity-60';

/** The label over an invisible copy of the longer one: the box never changes width. */
function Label({ muted }: { muted: boolean }) {
  return (
    <span className="grid">
      <span aria-hidden="true" className="invisible col-start-1 row-start-1">
        Unmute this thread
      </span>
      <span className="col-start-1 row-start-1">{muted ? 'Unmute this thread' : 'Mute this thread'}</span>
    </span>
  );
}

/** The button's room, empty: for readers who do not follow the thread, or are not known yet. */
export function MuteButtonSpace() {
  return (
    <span aria-hidden="true" className={`${LOOK} invisible`} data-testid="mute-space">
      <Label muted={false} />
    </span>
  );
}

export function MuteButton({ threadId, muted: initial }: { threadId: string; muted: boolean }) {
  const [muted, setState] = useState(initial);
  const [busy, setBusy] = useState(false);
  async function toggle() {
    setBusy(true);
    const result = await setMuted(threadId, !muted);
    setBusy(false);
    if (result.ok) {
      setState(result.data.muted);
      toast({
        title: result.data.muted ? 'Thread muted' : 'Thread unmuted',
        description: result.data.muted ? 'No more emails about replies here.' : 'We will email you when someone replies.',
      });
    } else toast({ title: 'Error', description: result.message, variant: 'destructive' });
  }
  return (
    <button type="button" aria-pressed={muted} disabled={busy} onClick={() => void toggle()} className={LOOK}>
      <Label muted={muted} />
    </button>
  );
}
