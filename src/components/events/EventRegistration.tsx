/**
 * The event page's registration area. Visitors: the seats left and Sign in / Sign up, both coming
 * back here. Members below the event's level: the gate card with Upgrade Now. Members at or above it:
 * Register or Cancel registration in one click (a toast says what happened), the seats left ("Full"
 * when none), and once registered the join button, which appears from 15 minutes before the start
 * (JoinLink asks the server, which checks again). After the end, a registrant of an event with a
 * recording gets "Watch the recording", also through the server. A cancelled event says so. The
 * browser's guess of the level is for display only: the server's 401/403 turns the area into the
 * right gate.
 */
import { useEffect, useState } from 'react';
import type { AccessLevel } from '#shared/access.ts';
import { endsAt, joinOpensAt } from '#shared/events/schedule.ts';
import { toast } from '../../lib/browser/toast.ts';
import { GateCard, signInHref, signUpHref } from '../content/gated/GateCard.tsx';
import { guessAccess, useViewer } from '../content/gated/use-viewer.ts';
import { cancelRegistration, fetchRecording, fetchRegistration, register, type RegistrationState } from './events-api.ts';
import { JoinLink } from './JoinLink.tsx';
import { useMoment } from './use-moment.ts';

export interface EventRegistrationProps {
  event: {
    slug: string;
    title: string;
    accessLevel: AccessLevel;
    /** The start as a UTC instant (ISO 8601). */
    startsAt: string;
    durationMinutes: number;
    cancelled: boolean;
    capacity?: number | undefined;
  };
}

const PRIMARY = 'min-h-11 rounded-lg bg-brand-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60';
const SECONDARY =
  'min-h-11 rounded-lg px-5 py-2.5 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50 disabled:opacity-60';
const BOX = 'rounded-2xl border border-slate-200 bg-white p-6 shadow-sm';

type Loaded = { status: 'loading' } | { status: 'error' } | { status: 'ready'; state: RegistrationState };

const seatsText = (seatsLeft: number | null) =>
  seatsLeft === null ? null : seatsLeft === 0 ? 'Full' : seatsLeft === 1 ? '1 seat left' : `${seatsLeft} seats left`;

const LEVEL_NOTE: Record<AccessLevel, string> = {
  free: 'Free for members.',
  subscriber: 'For subscribers and premium members.',
  premium: 'For premium members.',
};

function failed(description: string) {
  toast({ title: 'Error', description, variant: 'destructive' });
}

export default function EventRegistration({ event }: EventRegistrationProps) {
  const viewer = useViewer();
  const opensAt = joinOpensAt(event);
  const end = endsAt(event);
  const now = useMoment([opensAt.getTime(), end.getTime()]);
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  /** The server refused this member (their level): the gate, whatever the browser guessed. */
  const [refused, setRefused] = useState(false);
  const [busy, setBusy] = useState(false);
  const signedIn = viewer.status === 'signed-in';
  const who = viewer.status === 'signed-in' ? viewer.userId : viewer.status;

  useEffect(() => {
    if (who === 'loading' || event.cancelled) return;
    const controller = new AbortController();
    fetchRegistration(event.slug, who !== 'signed-out', controller.signal)
      .then((result) => setLoaded(result.ok ? { status: 'ready', state: result.data } : { status: 'error' }))
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [event.slug, event.cancelled, who, attempt]);

  if (event.cancelled)
    return (
      <div className={BOX} data-testid="event-registration">
        <p className="font-semibold text-slate-900">This event was cancelled.</p>
        <p className="mt-1 text-sm text-slate-600">Registration is closed. Registered members have been told by email.</p>
      </div>
    );
  const ended = now >= end.getTime();
  const guess = guessAccess(viewer, event.accessLevel);
  if (signedIn && (refused || guess === 'denied')) return <GateCard level={event.accessLevel} what="event" signedIn />;
  if (viewer.status === 'loading' || loaded.status === 'loading')
    return <div aria-hidden="true" className="h-32 animate-pulse rounded-2xl bg-slate-100" />;
  if (loaded.status === 'error')
    return (
      <div className={BOX} data-testid="event-registration">
        <p className="text-slate-700">We could not load your registration.</p>
        <button
          type="button"
          className={`${SECONDARY} mt-3`}
          onClick={() => {
            setLoaded({ status: 'loading' });
            setAttempt((n) => n + 1);
          }}
        >
          Try Again
        </button>
      </div>
    );

  const { state } = loaded;
  const seats = seatsText(state.seatsLeft);

  async function act(kind: 'register' | 'cancel') {
    setBusy(true);
    const result = await (kind === 'register' ? register(event.slug) : cancelRegistration(event.slug));
    setBusy(false);
    if (result.ok) {
      setLoaded({ status: 'ready', state: result.data });
      toast(
        kind === 'register'
          ? {
              title: 'Registered',
              description: `You're registered for "${event.title}". A confirmation with a calendar file is on its way.`,
            }
          : { title: 'Registration cancelled', description: `Your seat for "${event.title}" is free for someone else.` },
      );
    } else if (result.kind === 'forbidden') setRefused(true);
    else if (result.kind === 'signed-out') failed('Your session has ended. Please sign in again.');
    else {
      failed(result.message);
      // Full, cancelled or ended meanwhile: show the event as it is now.
      if (result.kind === 'error' && result.status === 409) setAttempt((n) => n + 1);
    }
  }

  if (ended)
    return (
      <div className={BOX} data-testid="event-registration">
        <p className="font-semibold text-slate-900">This event has ended.</p>
        {state.registered && state.hasRecording && <RecordingButton slug={event.slug} />}
        {!state.registered && state.hasRecording && (
          <p className="mt-1 text-sm text-slate-600">Its recording is available to the members who registered.</p>
        )}
      </div>
    );

  if (!signedIn)
    return (
      <div className={BOX} data-testid="event-registration">
        <p className="font-semibold text-slate-900">Register for this event</p>
        <p className="mt-1 text-sm text-slate-600">
          {LEVEL_NOTE[event.accessLevel]} Sign in or create an account to save your seat.
          {seats && <span className="ml-1 font-medium text-slate-800">{seats}</span>}
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          <a href={signInHref()} className={PRIMARY}>
            Sign in
          </a>
          <a href={signUpHref()} className={SECONDARY}>
            Sign up
          </a>
        </div>
      </div>
    );

  return (
    <div className={BOX} data-testid="event-registration">
      {state.registered ? (
        <>
          <p className="font-semibold text-emerald-700">You're registered.</p>
          <div className="mt-4 flex flex-wrap items-center gap-3">
            <JoinLink slug={event.slug} open={now >= opensAt.getTime()} opensAt={opensAt} />
            <button type="button" className={SECONDARY} disabled={busy} onClick={() => void act('cancel')}>
              {busy ? 'Cancelling…' : 'Cancel registration'}
            </button>
          </div>
        </>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" className={PRIMARY} disabled={busy || state.seatsLeft === 0} onClick={() => void act('register')}>
            {busy ? 'Registering…' : state.seatsLeft === 0 ? 'Full' : 'Register'}
          </button>
          {seats && state.seatsLeft !== 0 && <span className="text-sm font-medium text-slate-700">{seats}</span>}
        </div>
      )}
    </div>
  );
}

/** The recording, asked of the server when clicked (registrants the level still lets in). */
function RecordingButton({ slug }: { slug: string }) {
  const [busy, setBusy] = useState(false);
  async function open() {
    setBusy(true);
    const result = await fetchRecording(slug);
    setBusy(false);
    if (result.ok) window.location.assign(result.data.url);
    else
      failed(result.kind === 'forbidden' ? 'Your access level no longer includes this recording.' : 'The recording could not be opened.');
  }
  return (
    <button type="button" className={`${PRIMARY} mt-4`} disabled={busy} onClick={() => void open()}>
      {busy ? 'Opening…' : 'Watch the recording'}
    </button>
  );
}
