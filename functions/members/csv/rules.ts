/**
 * What a members file's line means for the newsletter and the profile (issue 35), pure: consent counts
 * only where the line proves it (the date it was given), so an import never subscribes anyone by
 * itself; an address put on the list, or told "yes", without that proof gets the double opt-in mail.
 */
import type { ImportedListEntry } from '../../newsletter/index.ts';
import type { ImportedProfile } from '../../users/index.ts';
import type { ImportLine } from './parse.ts';

/** Whether the line proves the address agreed to the newsletter: the date consent was given. */
export const consented = (l: ImportLine) => Boolean(l.list?.consentAt);

/** The profile's fields from a line; a "yes" to the newsletter counts only with proven consent. */
export const profileOf = (l: ImportLine): ImportedProfile => ({
  email: l.email,
  name: l.name,
  newsletter: l.newsletter === true && !consented(l) ? null : l.newsletter,
  customerId: l.customerId,
  signupReferrer: l.signup.referrer,
  signupUtmSource: l.signup.utmSource,
  signupUtmMedium: l.signup.utmMedium,
  signupUtmCampaign: l.signup.utmCampaign,
  createdAt: l.createdAt,
});

/** A proven list entry (kept as it was: confirmed or unsubscribed, with its consent), else null. */
export const provenEntry = (l: ImportLine): ImportedListEntry | null =>
  l.list && l.list.consentAt && l.list.status !== 'pending'
    ? { email: l.email, status: l.list.status, consentAt: l.list.consentAt, consentSource: l.list.source }
    : null;

/**
 * Who gets the double opt-in mail: an address the line puts on the list (or says yes to the
 * newsletter for) without proving consent, on no list yet, and not suppressed.
 */
export function optIns(lines: ImportLine[], listed: Set<string>): { email: string; source: string | null }[] {
  const asks = (l: ImportLine) => !consented(l) && (l.newsletter === true || (l.list !== null && l.list.status !== 'unsubscribed'));
  return lines
    .filter((l) => asks(l) && !listed.has(l.email) && !l.suppressed)
    .map((l) => ({ email: l.email, source: l.list?.source ?? null }));
}
