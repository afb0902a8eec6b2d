/**
 * Sign-up attribution (issue 35): where a member came from, as their visit's first page saw it (the
 * other site that sent them, and the campaign's UTM parameters). The browser keeps it for the visit
 * in sessionStorage (src/lib/browser/attribution.ts) and sends it once, in the sign-up's metadata
 * (`data.signup`); the server keeps on the profile only what passes `signupAttribution`. The caller
 * writes that metadata, so every value is checked here and a bad one is dropped, never refused: an
 * odd link must not stop anyone signing up.
 */

/** The sessionStorage key the first page's attribution is kept under for the visit. */
export const SIGNUP_STORAGE_KEY = 'beacon.signup';
export const REFERRER_MAX_CHARS = 500;
export const UTM_MAX_CHARS = 200;
/** The UTM parameters kept, as the URL and the sign-up's metadata name them. */
export const UTM_PARAMS = ['utm_source', 'utm_medium', 'utm_campaign'] as const;

/** What the sign-up's metadata carries under `signup` (every field optional). */
export interface SignupData {
  referrer?: string;
  utm_source?: string;
  utm_medium?: string;
  utm_campaign?: string;
}

/** The profile's attribution columns. */
export interface SignupAttribution {
  signupReferrer: string | null;
  signupUtmSource: string | null;
  signupUtmMedium: string | null;
  signupUtmCampaign: string | null;
}

// Control characters and line or paragraph separators: a value is a single line of text.
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]/;

/** `raw` trimmed when it is a single line of at most `max` characters; null otherwise or when empty. */
function line(raw: unknown, max: number): string | null {
  if (typeof raw !== 'string') return null;
  const value = raw.trim();
  return value && value.length <= max && !CONTROL.test(value) ? value : null;
}

/** `raw` when it is an http(s) URL of at most REFERRER_MAX_CHARS characters; null otherwise. */
function referrer(raw: unknown): string | null {
  const value = line(raw, REFERRER_MAX_CHARS);
  if (!value || !URL.canParse(value)) return null;
  const { protocol } = new URL(value);
  return protocol === 'https:' || protocol === 'http:' ? value : null;
}

/** The attribution a sign-up's `data.signup` gives, each invalid or missing value as null. */
export function signupAttribution(raw: unknown): SignupAttribution {
  const data = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  return {
    signupReferrer: referrer(data.referrer),
    signupUtmSource: line(data.utm_source, UTM_MAX_CHARS),
    signupUtmMedium: line(data.utm_medium, UTM_MAX_CHARS),
    signupUtmCampaign: line(data.utm_campaign, UTM_MAX_CHARS),
  };
}
