/**
 * The registration island's parts, one per state of the event page's registration area: cancelled,
 * could not load, ended (with the recording for registrants), a visitor's Sign in / Sign up, and a
 * member's Register or Cancel registration (with the join button for online events). EventRegistration
 * picks one. Browser only.
 */
import { useState, type ReactNode } from 'react';
import type { AccessLevel } from '#shared/access.ts';
import type { EventFormat } from '#shared/events/time.ts';
import { signInHref, signUpHref } from '../content/gated/GateCard.tsx';
import { fetchRecording, type RegistrationState } from './events-api.ts';
import { JoinLink } from './JoinLink.tsx';
import { failed } from './use-registration.ts';

const PRIMARY = 'min-h-11 rounded-lg bg-brand-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60';
const SECONDARY =
  'min-h-11 rounded-lg px-5 py-2.5 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50 disabled:opacity-60';

const LEVEL_NOTE: Record<AccessLevel, string> = {
  free: 'Free for members.',
  subscriber: 'For subscribers and premium members.',
  premium: 'For premium members.',
};

/** "Full", "1 seat left", "12 seats left"; null without a capacity. */
export const seatsText = (seatsLeft: number | null) =>
  seatsLeft === null ? null : seatsLeft === 0 ? 'Full' : seatsLeft === 1 ? '1 seat left' : `${seatsLeft} seats left`;

/** The area's frame (`copy`: the invisible one that keeps the area's room on the page, unnamed). */
export function RegistrationBox({ children, copy }: { children: ReactNode; copy?: boolean }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm" data-testid={copy ? undefined : 'event-registration'}>
      {children}
    </div>
  );
}

export function CancelledNotice() {
  return (
    <RegistrationBox>
      <p className="font-semibold text-slate-900">This event was cancelled.</p>
      <p className="mt-1 text-sm text-slate-600">Registration is closed. Registered members have been told by email.</p>
    </RegistrationBox>
  );
}

export function LoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <RegistrationBox>
      <p className="text-slate-700">We could not load your registration.</p>
      <button type="button" className={`${SECONDARY} mt-3`} onClick={onRetry}>
        Try Again
      </button>
    </RegistrationBox>
  );
}

/** After the end: the recording for registrants, a line for everyone else when there is one. */
export function EndedNotice({ slug, state }: { slug: string; state: RegistrationState }) {
  return (
    <RegistrationBox>
      <p className="font-semibold text-slate-900">This event has ended.</p>
      {state.registered && state.hasRecording && <RecordingButton slug={slug} />}
      {!state.registered && state.hasRecording && (
        <p className="mt-1 text-sm text-slate-600">Its recording is available to the members who registered.</p>
      )}
    </RegistrationBox>
  );
}

/** A visitor: who the event is for, the seats left, and Sign in / Sign up back to this page. */
export function SignInPrompt({ level, seatsLeft, copy }: { level: AccessLevel; seatsLeft: number | null; copy?: boolean }) {
  const seats = seatsText(seatsLeft);
  return (
    <RegistrationBox copy={copy}>
      <p className="font-semibold text-slate-900">Register for this event</p>
      <p className="mt-1 text-sm text-slate-600">
        {LEVEL_NOTE[level]} Sign in or create an account to save your seat.
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
    </RegistrationBox>
  );
}

export interface SeatActionsProps {
  slug: string;
  format: EventFormat;
  state: RegistrationState;
  busy: boolean;
  /** Whether the join link has opened (15 minutes before the start). */
  joinOpen: boolean;
  opensAt: Date;
  onAct: (kind: 'register' | 'cancel') => void;
}

/** An entitled member: Register (or "Full"), or once registered the join button (online events) and Cancel registration. */
export function SeatActions({ slug, format, state, busy, joinOpen, opensAt, onAct }: SeatActionsProps) {
  const seats = seatsText(state.seatsLeft);
  if (!state.registered)
    return (
      <RegistrationBox>
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" className={PRIMARY} disabled={busy || state.seatsLeft === 0} onClick={() => onAct('register')}>
            {busy ? 'Registering…' : state.seatsLeft === 0 ? 'Full' : 'Register'}
          </button>
          {seats && state.seatsLeft !== 0 && <span className="text-sm font-medium text-slate-700">{seats}</span>}
        </div>
      </RegistrationBox>
    );
  return (
    <RegistrationBox>
      <p className="font-semibold text-emerald-700">You're registered.</p>
      {format === 'in-person' && <p className="mt-1 text-sm text-slate-600">See you there: the address is above.</p>}
      <div className="mt-4 flex flex-wrap items-center gap-3">
        {format === 'online' && <JoinLink slug={slug} open={joinOpen} opensAt={opensAt} />}
        <button type="button" className={SECONDARY} disabled={busy} onClick={() => onAct('cancel')}>
          {busy ? 'Cancelling…' : 'Cancel registration'}
        </button>
      </div>
    </RegistrationBox>
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
