/** The email domain's settings: the sender, the contact inbox, the mail transport and the outbox worker. */
import path from 'node:path';
import { z } from 'zod';
import { booleanFlag, defineSettings } from '../platform/config/settings.ts';

export const emailSettings = defineSettings(
  {
    MAIL_FROM: z.string().min(3).default('Beacon Growth <hello@beacongrowth.co>'),
    CONTACT_INBOX: z.email().default('hello@beacongrowth.co'),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    EMAIL_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
    EMAIL_WORKER: booleanFlag.default(true),
    EMAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(6),
    EMAIL_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(16),
    /**
     * How long a claim on a message lasts unless the worker renews it (every third of it while alive):
     * the mail a dead worker had claimed goes out within about this much time.
     */
    EMAIL_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(12),
  },
  (env, { dataDir }) => ({
    from: env.MAIL_FROM,
    contactInbox: env.CONTACT_INBOX,
    /** SMTP server; without it, mail is written as .eml files into `mailboxDir`. */
    ...(env.SMTP_URL ? { smtpUrl: env.SMTP_URL } : {}),
    mailboxDir: path.join(dataDir, 'mailbox'),
    ...(env.EMAIL_WEBHOOK_SECRET ? { webhookSecret: env.EMAIL_WEBHOOK_SECRET } : {}),
    /** Run the outbox worker inside the server process. */
    worker: env.EMAIL_WORKER,
    maxAttempts: env.EMAIL_MAX_ATTEMPTS,
    concurrency: env.EMAIL_CONCURRENCY,
    /** How long a claim lasts without renewal; a dead worker's messages wait this long for another worker. */
    leaseMs: env.EMAIL_LEASE_SECONDS * 1000,
  }),
);

export type EmailSettings = ReturnType<typeof emailSettings.read>;
