/**
 * Staff's view of an event's registrants (editors and admins): every registration, cancelled ones
 * included, with the member's current name and address from the users domain, as JSON for the
 * dashboard and as CSV to export. CSV cells are quoted as RFC 4180 says, and a cell a spreadsheet
 * would take for a formula (a name starting with `=`, `+`, `-` or `@`) is prefixed with `'`.
 */
import type { Db } from '../platform/db/client.ts';
import { profilesOf } from './mails.ts';
import type { EventService } from './service.ts';
import { createEventStore } from './store.ts';
import { csvCell } from '../platform/http/csv.ts';

export interface Registrant {
  name: string;
  email: string;
  status: 'registered' | 'cancelled';
  registeredAt: string;
  cancelledAt: string | null;
}

const CSV_COLUMNS = ['name', 'email', 'status', 'registered_at', 'cancelled_at'] as const;

export function createRegistrantList({ db, events }: { db: Db; events: EventService }) {
  const store = createEventStore(db);

  async function list(slug: string) {
    const event = await events.eventOf(slug);
    const rows = await store.registrants(event.id);
    const profiles = new Map(
      (
        await profilesOf(
          db,
          rows.map((r) => r.userId),
        )
      ).map((p) => [p.id, p]),
    );
    const registrants: Registrant[] = rows.flatMap((row) => {
      const profile = profiles.get(row.userId);
      if (!profile) return [];
      return [
        {
          name: profile.name ?? '',
          email: profile.email,
          status: row.status,
          registeredAt: row.createdAt.toISOString(),
          cancelledAt: row.cancelledAt?.toISOString() ?? null,
        },
      ];
    });
    return {
      event: { slug: event.slug, title: event.title, startsAt: event.startsAt, capacity: event.capacity ?? null },
      registered: registrants.filter((r) => r.status === 'registered').length,
      registrants,
    };
  }

  return {
    /** GET /api/admin/events/{slug}/registrants */
    list,

    /** GET /api/admin/events/{slug}/registrants.csv: the same list as a spreadsheet file. */
    async csv(slug: string): Promise<{ filename: string; body: string }> {
      const { registrants } = await list(slug);
      const lines = [
        CSV_COLUMNS.join(','),
        ...registrants.map((r) => [r.name, r.email, r.status, r.registeredAt, r.cancelledAt ?? ''].map(csvCell).join(',')),
      ];
      return { filename: `${slug}-registrants.csv`, body: `${lines.join('\r\n')}\r\n` };
    },
  };
}

export type RegistrantList = ReturnType<typeof createRegistrantList>;
