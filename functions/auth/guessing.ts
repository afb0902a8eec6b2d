/**
 * Limits on guessing, counted per account as well as per client address (the per-address limits are
 * in context.ts): an attacker with many addresses still gets only a few tries at one member's
 * password or mailed code. Counters live in the shared `rate_limits` table, keyed by a digest of the
 * address or account, so they hold across instances and reveal nothing about who has an account
 * (unknown addresses are counted and locked exactly like known ones).
 *
 * A locked password never locks the owner out: a mailed link (sign-in link or reset) always works,
 * and following one clears the count. Codes typed by hand get a few tries each (then the code is
 * void and the next mail carries a new one) and a daily budget per account; links, whose hashes
 * cannot be guessed, are never limited by it.
 */
import { formatWait, type Limit, type RateLimitService } from '../platform/abuse/service.ts';
import { AuthError } from './errors.ts';

/** Failed passwords per address: a short lock after a burst, a longer one after a day of tries. */
export const PASSWORD_FAILURES: readonly Limit[] = [
  { name: 'auth-password-failures', max: 10, windowSeconds: 15 * 60 },
  { name: 'auth-password-failures-day', max: 50, windowSeconds: 24 * 3600 },
];
/** Wrong codes per account per day, whichever code they were aimed at. */
export const CODE_FAILURES: Limit = { name: 'auth-code-failures', max: 10, windowSeconds: 24 * 3600 };
/** Wrong tries that void one mailed code. */
export const MAX_CODE_ATTEMPTS = 5;

export function createGuessingLimits(limiter: RateLimitService) {
  return {
    /** 429 while the address has used up its failed passwords; nothing is counted. */
    async assertPasswordTriesLeft(email: string): Promise<void> {
      for (const limit of PASSWORD_FAILURES) {
        const state = await limiter.peek(limit, email);
        if (!state.allowed)
          throw new AuthError(
            429,
            'over_request_rate_limit',
            `Too many failed sign-in attempts for this address. Try again in ${formatWait(state.retryAfterSeconds)}, or sign in with a link sent to your email.`,
          );
      }
    },
    /** Counts a wrong password (or a wrong current password) for the address. */
    async passwordFailed(email: string): Promise<void> {
      for (const limit of PASSWORD_FAILURES) await limiter.hit(limit, email);
    },
    /** The owner proved themselves (a correct password, a followed link): the count starts again. */
    async cleared(email: string): Promise<void> {
      for (const limit of PASSWORD_FAILURES) await limiter.reset(limit, email);
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
