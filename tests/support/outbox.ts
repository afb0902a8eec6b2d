/** Mail queued straight into the outbox, as a write would queue it (a contact notice), for suites that send it. */
import { createEmailService } from '../../functions/email/service.ts';
import type { Db } from '../../functions/platform/db/client.ts';
import { quietLogger } from './fixtures.ts';

/** Queues one contact notice to each of `addresses` on `db`. */
export async function queueMail(db: Db, siteUrl: string, addresses: string[]): Promise<void> {
  const outbox = createEmailService({ db, from: 'Beacon <hello@beacon.example>', siteUrl, maxAttempts: 3, logger: quietLogger() });
  for (const to of addresses)
    await outbox.enqueue(db, {
      to,
      template: 'contact-notification',
      data: { name: 'Ada', email: 'ada@example.com', subject: 'Hello', message: 'A message', receivedAt: 'now' },
    });
}
