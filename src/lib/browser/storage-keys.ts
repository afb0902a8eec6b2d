/** Keys of what the browser keeps in localStorage (spec point 3). */
import { ACCESS_LEVELS, type AccessLevel } from '#shared/access.ts';

export const STORAGE_KEYS = {
  /** Email given in the newsletter or lead form; a stored email skips the lead form. */
  userEmail: 'beacon.userEmail',
  /** The signed-in user's access level, removed on sign-out. */
  accessLevel: 'beacon.userAccessLevel',
  /** Whether the signed-in member has a payment customer ('true' or 'false'), removed on sign-out: the account page's skeleton draws a plan's room only then. */
  hasPlan: 'beacon.userHasPlan',
} as const;

/** localStorage read that never throws (private modes, disabled storage). */
export function readStored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** localStorage write that never throws. */
export function writeStored(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage unavailable: the feature degrades to asking again.
  }
}

/** localStorage removal that never throws. */
export function removeStored(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Storage unavailable: nothing was kept.
  }
}

/** The access level the auth client last mirrored here (a guess, for display only), or null. */
export function storedAccessLevel(): AccessLevel | null {
  const stored = readStored(STORAGE_KEYS.accessLevel);
  return (ACCESS_LEVELS as readonly (string | null)[]).includes(stored) ? (stored as AccessLevel) : null;
}

/** Whether the auth client last saw a payment customer on the member (a guess, for display only). */
export function storedHasPlan(): boolean {
  return readStored(STORAGE_KEYS.hasPlan) === 'true';
}
