/**
 * Sign-up attribution in the browser (issue 35): ATTRIBUTION_SCRIPT, a tiny inline script every page
 * runs (BaseLayout.astro, hashed into its CSP), keeps the visit's first page's referrer (only another
 * site's) and UTM parameters in sessionStorage; the sign-up form sends them with the new account
 * (`signupData`). First-party and sent nowhere until the visitor signs up, so no consent banner is
 * needed. The first page of the visit decides: later pages never overwrite it, even with no source.
 */
import { REFERRER_MAX_CHARS, SIGNUP_STORAGE_KEY, UTM_MAX_CHARS, UTM_PARAMS, type SignupData } from '#shared/signup-attribution.ts';

/**
 * The inline script (ES5, under 500 bytes). Values are cut to the server's limits; the server checks
 * them again (`signupAttribution`). Storage may be refused (private modes): then nothing is kept.
 */
export const ATTRIBUTION_SCRIPT =
  `try{var s=sessionStorage,k=${JSON.stringify(SIGNUP_STORAGE_KEY)};if(!s.getItem(k)){var o={},p=new URLSearchParams(location.search),r=document.referrer;` +
  `try{if(r&&new URL(r).host!==location.host)o.referrer=r.slice(0,${REFERRER_MAX_CHARS})}catch(e){}` +
  `${JSON.stringify(UTM_PARAMS)}.forEach(function(n){var v=p.get(n);if(v)o[n]=v.slice(0,${UTM_MAX_CHARS})});` +
  `s.setItem(k,JSON.stringify(o))}}catch(e){}`;

/** What the visit's first page saw, for the sign-up's metadata; undefined when nothing was kept. */
export function signupData(): SignupData | undefined {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(SIGNUP_STORAGE_KEY) ?? 'null');
    if (!stored || typeof stored !== 'object') return undefined;
    const data: SignupData = {};
    for (const key of ['referrer', ...UTM_PARAMS] as const) {
      const value = (stored as Record<string, unknown>)[key];
      if (typeof value === 'string' && value) data[key] = value;
    }
    return Object.keys(data).length ? data : undefined;
  } catch {
    return undefined;
  }
}
