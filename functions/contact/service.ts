/**
 * The contact form: the message is stored, the consultancy inbox is notified (Reply-To the sender,
 * with everything the visitor wrote) and the sender gets an acknowledgement in our own words, all in
 * one transaction. The acknowledgement quotes nothing the visitor typed: its address is unverified,
 * and quoting would let anyone send text of their choosing to anyone from our domain.
 */
import type { Db } from '../platform/db/client.ts';
import type { EmailService } from '../email/index.ts';
import { createContactStore } from './store.ts';

export interface ContactMessage {
  name: string;
  email: string;
  subject: string;
  message: string;
}

export interface ContactServiceDeps {
  db: Db;
  outbox: EmailService;
  inbox: string;
}

export function createContactService({ db, outbox, inbox }: ContactServiceDeps) {
  return {
    async submit(input: ContactMessage, meta: { ip: string; userAgent?: string }): Promise<{ id: string }> {
      return db.transaction(async (tx) => {
        const row = await createContactStore(tx).insert({ ...input, ip: meta.ip, userAgent: meta.userAgent?.slice(0, 300) ?? null });
        await outbox.enqueue(tx, {
          to: inbox,
          template: 'contact-notification',
          data: { ...input, receivedAt: row.createdAt.toUTCString() },
        });
        await outbox.enqueue(tx, { to: input.email, template: 'contact-acknowledgement', data: {} });
        return { id: row.id };
      });
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
