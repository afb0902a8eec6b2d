/**
 * What a caller may hand `createServices()` (functions/compose.ts) instead of what configuration
 * picks: an open database, the mail adapter, clocks and tunings (tests, the stand-alone worker, a
 * serverless function).
 */
import type { BodyRendererOptions } from '../content/body-renderer.ts';
import type { WorkerOptions } from '../email/worker.ts';
import type { OutboundOptions } from '../outbound/service.ts';
import type { Database, OpenOptions } from '../platform/db/client.ts';
import type { PgliteFiles } from '../platform/db/pglite-files.ts';
import type { MailTransport } from '../platform/mail/index.ts';

export interface ServiceOptions {
  /** An already migrated database; the caller closes it. Otherwise the configured one is opened. */
  database?: Database;
  /** Else the configured one is opened, with its files when prepared already (server.ts). */
  pgliteFiles?: PgliteFiles;
  /** What opening it does about migrations (default: applies them; a serverless function only verifies). */
  migrate?: OpenOptions['migrate'];
  /** How other instances' changes are heard (default: LISTEN; a serverless function reads the change log). */
  changes?: OpenOptions['changes'];
  /** The mail adapter; otherwise the configured one (SMTP or the embedded mailbox). */
  mailTransport?: MailTransport;
  /** Worker tuning (tests, the stand-alone worker). */
  worker?: Partial<Omit<WorkerOptions, 'db' | 'transport' | 'logger'>>;
  /** Now, as the embedded payment provider sees it (tests move it to renew and end subscriptions). */
  billingClock?: () => Date;
  /** Now, as billing's own records see it (our copies, the ledger, the revenue history); tests script a history of months with it. */
  billingServiceClock?: () => Date;
  /** The staff bodies' renderer's tuning (tests shorten its time limit). */
  staffRenderer?: BodyRendererOptions;
  /** Outbound webhooks' clock, sender, target policy and worker tuning (tests). */
  webhooks?: Partial<Omit<OutboundOptions, 'db' | 'logger'>>;
}
