/**
 * Limits on guessing, beyond the per-address request limits in context.ts. Counters live in the shared
 * `rate_limits` table, keyed by digests, so they hold across instances and reveal nothing about who
 * has an account: an address without one is counted and answered exactly like one with an account.
 *
 * Passwords (sign-in, and the current password a change may need) are limited so that strangers can
 * neither guess one nor lock its owner out (a client address here is an IPv6 client's /64 network,
 * `networkOf`):
 * - one client address gets a few tries at one account (`perAddress` per 15 minutes, and never more
 *   in a day than the account's daily number); then it waits, or uses a mailed link;
 * - every address the account has not signed in from shares `perAccount` tries a day; past them a
 *   password from such an address is not enough, right or wrong (one answer, so the tries stay
 *   bounded however many addresses an attacker has): a mailed link or code signs the member in and
 *   remembers the address;
 * - an address the account signed in from (by password or mailbox) in the last 30 days is its
 *   owner's: failures from elsewhere never refuse the owner's right password there.
 * A try is counted before the password is compared, so tries arriving together cannot pass the
 * bound, and a right one is given back.
 *
 * Codes typed by hand get a few tries each (then the code is void and the next mail carries a new
 * one) and a daily budget per account; links, whose hashes cannot be guessed, are never limited by it.
 */
import { MARK_DAYS } from '../platform/abuse/store.ts';
import { formatWait, networkOf, type Limit, type RateLimitService } from '../platform/abuse/service.ts';
import { AuthError } from './errors.ts';

const DAY = 24 * 3600;
/** Wrong codes per account per day, whichever code they were aimed at. */
export const CODE_FAILURES: Limit = { name: 'auth-code-failures', max: 10, windowSeconds: DAY };
/** Wrong tries that void one mailed code. */
export const MAX_CODE_ATTEMPTS = 5;
/** The mark of an address an account signed in from, and how long it makes the address the owner's. */
const SIGNED_IN_FROM = 'auth-signed-in-from';
const OWNER_ADDRESS_SECONDS = MARK_DAYS * DAY;

export interface PasswordTries {
  /** Tries one client address gets at one account per 15 minutes. */
  perAddress: number;
  /** Tries a day at one account from the addresses it has not signed in from, together. */
  perAccount: number;
}

/** What a password is being tried for: the words of a refusal say what to do instead. */
export type PasswordPurpose = 'sign-in' | 'change';

const WAIT_HERE: Record<PasswordPurpose, (wait: string) => string> = {
  'sign-in': (wait) =>
    `Too many failed sign-in attempts for this account from your network. Try again in ${wait}, or sign in with a link sent to your email.`,
  change: (wait) =>
    `Too many wrong passwords from your network. Try again in ${wait}, or confirm it is you with a code sent to your email.`,
};
const NEEDS_MAILBOX: Record<PasswordPurpose, string> = {
  'sign-in':
    'Too many wrong passwords were tried for this account, so signing in from a new network now needs a link or code sent to your email.',
  change: 'Too many wrong passwords were tried for this account: confirm it is you with a code sent to your email instead.',
};

export function createGuessingLimits(limiter: RateLimitService, tries: PasswordTries) {
  const fromAddress: readonly Limit[] = [
    { name: 'auth-password-tries-address', max: tries.perAddress, windowSeconds: 15 * 60 },
    { name: 'auth-password-tries-address-day', max: tries.perAccount, windowSeconds: DAY },
  ];
  const fromStrangers: Limit = { name: 'auth-password-tries-account', max: tries.perAccount, windowSeconds: DAY };
  const pair = (email: string, ip: string) => `${email}\n${networkOf(ip)}`;

  /** The owner is here: this address's count starts again, and with `remember` the address is the owner's. */
  async function cleared(here: string, remember: boolean): Promise<void> {
    for (const limit of fromAddress) await limiter.reset(limit, here);
    if (remember) await limiter.remember(SIGNED_IN_FROM, here);
  }

  return {
    /**
     * Counts a password try at `email` from `ip`, before the password is compared: 429 when this
     * address has used its tries, or when the account is past its tries from strange addresses and
     * this is one. Answers the try, whose `right` is called when the password was right. No address
     * (the server calling itself): nothing is counted.
     */
    async passwordTry(email: string, ip: string | undefined, purpose: PasswordPurpose) {
      if (ip === undefined) return { right: async (_signedIn: boolean) => {} };
      const here = pair(email, ip);
      for (const limit of fromAddress) {
        const state = await limiter.hit(limit, here);
        if (!state.allowed) throw new AuthError(429, 'over_request_rate_limit', WAIT_HERE[purpose](formatWait(state.retryAfterSeconds)));
      }
      const owners = await limiter.remembers(SIGNED_IN_FROM, here, OWNER_ADDRESS_SECONDS);
      if (!owners && !(await limiter.hit(fromStrangers, email)).allowed) {
        throw new AuthError(429, 'over_request_rate_limit', NEEDS_MAILBOX[purpose]);
      }
      return {
        /** The password was right: the try is given back; `signedIn`: a session opened, so the address is the owner's. */
        async right(signedIn: boolean): Promise<void> {
          if (!owners) await limiter.release(fromStrangers, email);
          await cleared(here, signedIn);
        },
      };
    },
    /** A mailed link or code signed the member in from `ip`: that address is the owner's, and its count starts again. */
    async provenByMailbox(email: string, ip: string | undefined): Promise<void> {
      if (ip !== undefined) await cleared(pair(email, ip), true);
    },
    /** 429 while the account has used up its wrong codes for the day; links still work. */
    async assertCodeTriesLeft(userId: string): Promise<void> {
      const state = await limiter.peek(CODE_FAILURES, userId);
      if (!state.allowed)
        throw new AuthError(
          429,
          'over_request_rate_limit',
          `Too many wrong codes for this account. Use the link in the email instead, or try again in ${formatWait(state.retryAfterSeconds)}.`,
        );
    },
    /** Counts a wrong code against the account's daily budget. */
    async codeFailed(userId: string): Promise<void> {
      await limiter.hit(CODE_FAILURES, userId);
    },
  };
}

export type GuessingLimits = ReturnType<typeof createGuessingLimits>;
