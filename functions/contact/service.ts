/**
 * The contact form: the message is stored, the consultancy inbox is notified (Reply-To the sender)
 * and the sender gets an acknowledgement, all in one transaction.
 */
import { contactMessages } from '../db/schema.ts';
import type { Db } from '../db/client.ts';
import type { Outbox } from '../email/service.ts';

export interface ContactMessage {
  name: string;
  email: string;
  subject: string;
  message: string;
}

export interface ContactDeps {
  db: Db;
  outbox: Outbox;
  inbox: string;
}

export function createContact({ db, outbox, inbox }: ContactDeps) {
  return {
    async submit(input: ContactMessage, meta: { ip: string; userAgent?: string }): Promise<{ id: string }> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(contactMessages)
          .values({ ...input, ip: meta.ip, userAgent: meta.userAgent?.slice(0, 300) ?? null })
          .returning({ id: contactMessages.id, createdAt: contactMessages.createdAt });
        await outbox.enqueue(tx, {
          to: inbox,
          template: 'contact-notification',
          data: { ...input, receivedAt: row!.createdAt.toUTCString() },
        });
        await outbox.enqueue(tx, {
          to: input.email,
          template: 'contact-acknowledgement',
          data: { name: input.name, subject: input.subject, message: input.message },
        });
        return { id: row!.id };
      });
    },
  };
}

export type Contact = ReturnType<typeof createContact>;
