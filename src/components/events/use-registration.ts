/**
 * The registration island's state: the caller's registration and the seats left, loaded from the
 * events API (again after a write the server refused with 409, so the event shows as it is now), and
 * the two writes, Register and Cancel registration, each answered with a toast. A 403 marks the
 * caller refused (their level), whatever the browser guessed. Browser only.
 */
import { useEffect, useState } from 'react';
import { toast } from '../../lib/browser/toast.ts';
import { cancelRegistration, fetchRegistration, register, type RegistrationState } from './events-api.ts';

export type Loaded = { status: 'loading' } | { status: 'error' } | { status: 'ready'; state: RegistrationState };

/** A failure the member should see. */
export function failed(description: string): void {
  toast({ title: 'Error', description, variant: 'destructive' });
}

const DONE = {
  register: (title: string) => ({
    title: 'Registered',
    description: `You're registered for "${title}". A confirmation with a calendar file is on its way.`,
  }),
  cancel: (title: string) => ({ title: 'Registration cancelled', description: `Your seat for "${title}" is free for someone else.` }),
};

/**
 * `who` is the viewer's id, 'signed-out', or 'loading' (nothing is asked until it is known); a
 * cancelled event asks nothing.
 */
export function useRegistration(event: { slug: string; title: string; cancelled: boolean }, who: string) {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [refused, setRefused] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (who === 'loading' || event.cancelled) return;
    const controller = new AbortController();
    fetchRegistration(event.slug, who !== 'signed-out', controller.signal)
      .then((result) => setLoaded(result.ok ? { status: 'ready', state: result.data } : { status: 'error' }))
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [event.slug, event.cancelled, who, attempt]);

  function reload() {
    setLoaded({ status: 'loading' });
    setAttempt((n) => n + 1);
  }

  async function act(kind: 'register' | 'cancel') {
    setBusy(true);
    const result = await (kind === 'register' ? register(event.slug) : cancelRegistration(event.slug));
    setBusy(false);
    if (result.ok) {
      setLoaded({ status: 'ready', state: result.data });
      toast(DONE[kind](event.title));
    } else if (result.kind === 'forbidden') setRefused(true);
    else if (result.kind === 'signed-out') failed('Your session has ended. Please sign in again.');
    else {
      failed(result.message);
      // Full, cancelled or ended meanwhile: show the event as it is now.
      if (result.kind === 'error' && result.status === 409) setAttempt((n) => n + 1);
    }
  }

  return { loaded, refused, busy, reload, act };
}
