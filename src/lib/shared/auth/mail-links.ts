/**
 * What a mailed link brought back to /signin, and the auth service's refusals in plain words. The
 * service answers a link with a 303 whose fragment holds the session (`access_token`, `type`) or the
 * error (`error`, `error_code`, `error_description`, GoTrue's shape); supabase-js reads the first and
 * ignores the second, so the page reads both first. Pure: callers pass `location.hash` and errors.
 */

/** What the fragment of a landing page says. */
export type Landing =
  | { kind: 'session'; type: string }
  | { kind: 'failed'; code: string; description: string }
  /** A step that needs another (the first of an email change's two links). */
  | { kind: 'message'; text: string };

/** Reads a landing from `location.hash`; undefined when the page was not opened from a mailed link. */
export function readLanding(hash: string): Landing | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const code = params.get('error_code') ?? '';
  const description = params.get('error_description') ?? '';
  if (params.get('error') || code || description) return { kind: 'failed', code, description };
  if (params.get('access_token')) return { kind: 'session', type: params.get('type') ?? '' };
  const message = params.get('message');
  return message ? { kind: 'message', text: message } : undefined;
}

export interface Notice {
  title: string;
  description: string;
}

/** Why a link failed, for a visitor who only wanted to get in. */
export function linkProblem(code: string, description: string): Notice {
  if (code === 'otp_expired' || (!code && /expired|invalid/i.test(description)))
    return {
      title: 'This link no longer works',
      description:
        'It has expired, was already used, or a newer email replaced it: each link works once, for one hour, and only the newest email’s link counts. Enter your email and we will send you a new one.',
    };
  if (code === 'over_request_rate_limit')
    return {
      title: 'Too many attempts',
      description:
        'Too many links were opened from your network just now. Wait a few minutes and open it again, or ask for a new link below.',
    };
  const reason = description ? description.replace(/[.!]?$/, '.') : 'The link could not be used.';
  return { title: 'This link did not work', description: `${reason} You can ask for a new link below.` };
}

/** The message the next page shows after a link or code signed the visitor in; none for a reset (the new-password page follows). */
export function signedInNotice(type: string): Notice | undefined {
  if (type === 'signup' || type === 'invite')
    return { title: 'Email confirmed', description: 'Your email address is confirmed and you are signed in.' };
  if (type === 'email_change') return { title: 'Email address confirmed', description: 'Your new email address is confirmed.' };
  if (type === 'recovery') return undefined;
  return { title: 'Signed in', description: 'You are signed in.' };
}

export const PASSWORD_UPDATED: Notice = { title: 'Password updated', description: 'Your new password is set.' };

/** An auth error as supabase-js reports it. */
export interface AuthErrorLike {
  message: string;
  code?: string;
  status?: number;
}

const PER_ADDRESS_LIMIT = 'Request rate limit reached';
const TOO_MANY = 'Too many requests from your network. Please wait a few minutes and try again.';

/**
 * A refused mail request in plain words, naming the wait of the mail that was asked for (`what`:
 * "sign-in link", "reset link"...). Every kind of mail has its own cooldown at the service.
 */
export function mailRequestError(error: AuthErrorLike, what: string): string {
  if (error.code === 'over_email_send_rate_limit') {
    const seconds = /(\d+)\s*seconds?/.exec(error.message)?.[1];
    const wait = seconds ? `in ${seconds} ${seconds === '1' ? 'second' : 'seconds'}` : 'in a minute';
    return `We sent you a ${what} a moment ago. You can ask for another ${wait}.`;
  }
  return error.message === PER_ADDRESS_LIMIT ? TOO_MANY : error.message;
}

/**
 * Why a password alone did not sign the visitor in, when the way in is now a mailed link (the
 * service's 429 `over_request_rate_limit`: too many tries from this network, or at this account from
 * new networks); undefined for any other refusal. The guessing limits say themselves what to do.
 */
export function passwordHeld(error: AuthErrorLike): string | undefined {
  if (error.code !== 'over_request_rate_limit') return undefined;
  return error.message === PER_ADDRESS_LIMIT ? TOO_MANY : error.message;
}

/** A refused code in plain words; the per-account guessing limits say themselves what to do. */
export function codeError(error: AuthErrorLike): string {
  if (error.code === 'otp_expired')
    return 'That code is wrong or has expired. Each code works once, for one hour, and only the newest email’s code counts.';
  return error.message === PER_ADDRESS_LIMIT ? TOO_MANY : error.message;
}

/** The sign-in methods an access token records (`amr`), e.g. "recovery" for a reset link's or code's session. */
export function signInMethods(accessToken: string): string[] {
  try {
    const payload = accessToken.split('.')[1] ?? '';
    const json = atob(
      payload
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(payload.length / 4) * 4, '='),
    );
    const amr = (JSON.parse(json) as { amr?: unknown }).amr;
    return Array.isArray(amr) ? amr.map((entry) => String((entry as { method?: unknown } | null)?.method ?? entry)) : [];
  } catch {
    return [];
  }
}
