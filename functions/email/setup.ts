/** Builds the configured transport and worker (shared by the server and the stand-alone worker). */
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { Logger } from '../lib/logger.ts';
import { EMAIL_CHANNEL } from './store.ts';
import { createMailboxTransport, createSmtpTransport, type MailTransport } from './transports.ts';
import { createEmailWorker, type WorkerOptions } from './worker.ts';

export function createMailTransport(config: Config, logger: Logger): MailTransport {
  return config.email.smtpUrl
    ? createSmtpTransport(config.email.smtpUrl, { maxConnections: Math.min(10, config.email.concurrency) })
    : createMailboxTransport(config.email.mailboxDir, logger);
}

export function createConfiguredWorker(
  config: Config,
  database: Database,
  logger: Logger,
  overrides: Partial<WorkerOptions> = {},
) {
  const transport = overrides.transport ?? createMailTransport(config, logger);
  const worker = createEmailWorker({
    db: database.db,
    transport,
    logger,
    concurrency: config.email.concurrency,
    subscribe: (wake) => database.listen(EMAIL_CHANNEL, wake),
    ...overrides,
  });
  return {
    worker,
    transport,
    async stop(graceMs?: number) {
      await worker.stop(graceMs);
      await transport.close();
    },
  };
}
