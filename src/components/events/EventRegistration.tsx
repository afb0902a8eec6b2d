/**
 * The event page's registration area. Visitors: the seats left and Sign in / Sign up, both coming
 * back here. Members below the event's level: the gate card with Upgrade Now. Members at or above it:
 * Register or Cancel registration in one click (a toast says what happened), the seats left ("Full"
 * when none), and once registered to an online event the join button, which appears from 15 minutes
 * before the start (JoinLink asks the server, which checks again); an in-person event has none. After
 * the end, a registrant of an event with a recording gets "Watch the recording", also through the
 * server. A cancelled event says so. The browser's guess of the level is for display only: the
 * server's 401/403 turns the area into the right gate. The parts are in registration-parts.tsx.
 */
import type { AccessLevel } from '#shared/access.ts';
import { endsAt, hasEnded, joinOpensAt } from '#shared/events/schedule.ts';
import type { EventFormat } from '#shared/events/time.ts';
import { GateCard } from '../content/gated/GateCard.tsx';
import { guessAccess, useViewer } from '../content/gated/use-viewer.ts';
import { CancelledNotice, EndedNotice, LoadFailed, SeatActions, SignInPrompt } from './registration-parts.tsx';
import { useMoment } from './use-moment.ts';
import { useRegistration } from './use-registration.ts';

export interface EventRegistrationProps {
  event: {
    slug: string;
    title: string;
    accessLevel: AccessLevel;
    /** The start as a UTC instant (ISO 8601). */
    startsAt: string;
    durationMinutes: number;
    format: EventFormat;
    cancelled: boolean;
    capacity?: number | undefined;
  };
}

export default function EventRegistration({ event }: EventRegistrationProps) {
  const viewer = useViewer();
  const opensAt = joinOpensAt(event);
  const end = endsAt(event);
  const now = useMoment([opensAt.getTime(), end.getTime()]);
  const who = viewer.status === 'signed-in' ? viewer.userId : viewer.status;
  const { loaded, refused, busy, reload, act } = useRegistration(event, who);

  if (event.cancelled) return <CancelledNotice />;
  const signedIn = viewer.status === 'signed-in';
  if (signedIn && (refused || guessAccess(viewer, event.accessLevel) === 'denied'))
    return <GateCard level={event.accessLevel} what="event" signedIn />;
  if (viewer.status === 'loading' || loaded.status === 'loading')
    return <div aria-hidden="true" className="h-32 animate-pulse rounded-2xl bg-slate-100" />;
  if (loaded.status === 'error') return <LoadFailed onRetry={reload} />;
  const { state } = loaded;
  if (hasEnded(event, now)) return <EndedNotice slug={event.slug} state={state} />;
  if (!signedIn) return <SignInPrompt level={event.accessLevel} seatsLeft={state.seatsLeft} />;
  return (
    <SeatActions
      slug={event.slug}
      format={event.format}
      state={state}
      busy={busy}
      joinOpen={now >= opensAt.getTime()}
      opensAt={opensAt}
      onAct={(kind) => void act(kind)}
    />
  );
}
