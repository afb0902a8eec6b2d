/** The newsletter's settings: how fast an issue's copies may leave (SMTP providers cap senders). */
import { z } from 'zod';
import { defineSettings } from '../platform/config/settings.ts';

export const newsletterSettings = defineSettings(
  {
    /**
     * At most this many copies of one issue are handed to the outbox worker per minute (their send
     * times are spread), for SMTP providers with hourly or daily caps; unset sends as fast as the worker can.
     */
    NEWSLETTER_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).optional(),
  },
  (env) => ({
    /** Copies of one issue per minute; undefined: no cap. */
    ratePerMinute: env.NEWSLETTER_RATE_PER_MINUTE,
  }),
);

export type NewsletterSettings = ReturnType<typeof newsletterSettings.read>;
