/**
 * The composition's mail and messages part: the durable outbox every domain queues mail in, the
 * outbox worker and its transport (also what the stand-alone worker runs), and outbound webhooks,
 * which the domains emit in their transactions.
 */
import type { Config } from '../config.ts';
import { createEmailService } from '../email/service.ts';
import { EMAIL_CHANNEL } from '../email/store.ts';
import { createEmailWorker } from '../email/worker.ts';
import { createOutboundService } from '../outbound/service.ts';
import type { Database } from '../platform/db/client.ts';
import type { Logger } from '../platform/logger.ts';
import { pickMailTransport } from '../platform/mail/index.ts';
import type { ServiceOptions } from './options.ts';

/** The outbox worker and its transport on `database`: what the stand-alone worker runs, and part of the services. */
export function createMailDelivery(config: Config, database: Database, logger: Logger, options: ServiceOptions = {}) {
  const transport = options.mailTransport ?? pickMailTransport(config.email, logger);
  const worker = createEmailWorker({
    db: database.db,
    transport,
    logger,
    concurrency: config.email.concurrency,
    leaseMs: config.email.leaseMs,
    subscribe: (wake) => database.listen(EMAIL_CHANNEL, wake),
    ...options.worker,
  });
  return {
    worker,
    transport,
    /** Stops the worker (finishing sends in flight) and closes the transport. */
    async stop(graceMs?: number) {
      await worker.stop(graceMs);
      await transport.close();
    },
  };
}

export type MailDelivery = ReturnType<typeof createMailDelivery>;

/** What the outbox and outbound webhooks are built on. */
export interface MessageDeps {
  db: Database;
  config: Config;
  logger: Logger;
  /** Outbound webhooks' clock, sender, target policy and worker tuning (tests). */
  outboundOptions: ServiceOptions['webhooks'];
}

/** The outbox and outbound webhooks (nothing runs until `start()`). */
export function buildMessages({ db, config, logger, outboundOptions }: MessageDeps) {
  const { siteUrl } = config;
  const outbox = createEmailService({ db: db.db, from: config.email.from, siteUrl, maxAttempts: config.email.maxAttempts, logger });
  // Outbound webhooks: the domains emit in their transactions; loopback and private targets only on the embedded defaults.
  const { localTargets } = config.webhooks;
  const webhooks = createOutboundService({
    db: db.db,
    logger,
    policy: { allowPrivate: localTargets, allowHttp: localTargets },
    ...outboundOptions,
  });
  return { outbox, webhooks };
}
