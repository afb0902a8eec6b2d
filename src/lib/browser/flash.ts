/**
 * A message for the page the visitor is sent to next ('Email confirmed', 'Signed in', 'Password
 * updated'): set just before the move, shown once as a toast by whichever page opens next (the site
 * header's script runs on every page). Kept in sessionStorage, so it stays in this tab and goes once
 * shown. A toast raised just before leaving a page is never seen; this one is.
 */
import { ensureToastRegion, toast } from './toast.ts';

const KEY = 'beacon.flash';
/** Longer than a toast's usual 5 s: the page around it is new and takes a moment to read. */
const DURATION_MS = 10_000;

export interface Flash {
  title: string;
  description?: string;
}

/** Keeps `flash` for the next page this tab opens. */
export function setFlash(flash: Flash): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(flash));
  } catch {
    // Storage unavailable: the next page simply says nothing.
  }
}

/** Shows and forgets the message the previous page left, if any. */
export function showFlash(): void {
  let flash: Partial<Flash> | null = null;
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return;
    sessionStorage.removeItem(KEY);
    flash = JSON.parse(raw) as Partial<Flash> | null;
  } catch {
    return;
  }
  if (typeof flash?.title !== 'string') return;
  const { title, description } = flash;
  // The live region exists before the message arrives, so screen readers announce it.
  ensureToastRegion();
  window.setTimeout(
    () => toast({ title, description: typeof description === 'string' ? description : undefined, duration: DURATION_MS }),
    50,
  );
}
