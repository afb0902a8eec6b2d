/** The community's reply mails: how often every instance looks for members due one. */
import { z } from 'zod';
import { defineSettings } from '../../platform/config/settings.ts';

export const communityMailSettings = defineSettings(
  {
    /**
     * Seconds between two rounds of reply mails on each instance (each member gets at most one mail
     * per thread per 15 minutes whatever this is); the browser tests shorten it.
     */
    COMMUNITY_MAIL_ROUND_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  },
  (env) => ({
    /** Milliseconds between two rounds. */
    roundMs: env.COMMUNITY_MAIL_ROUND_SECONDS * 1000,
  }),
);

export type CommunityMailSettings = ReturnType<typeof communityMailSettings.read>;
