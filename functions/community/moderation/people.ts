/**
 * The members a moderation answer names (authors, reporters, staff in the log), read in two `IN`
 * queries whatever their number: profiles through the users domain's read-only directory, standing
 * from `community_members`. A deleted account is absent (the caller shows "deleted member").
 */
import type { AccessLevel, Role } from '#shared/access.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { memberDirectory } from '../../users/index.ts';
import type { ModerationStore } from './store.ts';

/** A member as staff see them in the Moderation tab. */
export interface Person {
  id: string;
  name: string;
  email: string;
  role: Role;
  accessLevel: AccessLevel;
  /** The suspension in force now, if any (`until` null: until lifted). */
  suspension: { until: string | null; reason: string } | null;
}

/** Each of `ids` that still has an account, by id; `get` answers null for a missing or null id. */
export async function people(db: DbOrTx, store: ModerationStore, ids: (string | null)[]) {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  const [profiles, standing] = await Promise.all([memberDirectory(db).byIds(wanted), store.membersOf(wanted)]);
  const suspended = new Map(
    standing
      .filter((m) => m.suspendedAt && (!m.suspendedUntil || m.suspendedUntil.getTime() > Date.now()))
      .map((m) => [m.userId, { until: m.suspendedUntil?.toISOString() ?? null, reason: m.suspendedReason ?? '' }]),
  );
  const byId = new Map<string, Person>(
    profiles.map((p) => [
      p.id,
      { id: p.id, name: p.name ?? '', email: p.email, role: p.role, accessLevel: p.accessLevel, suspension: suspended.get(p.id) ?? null },
    ]),
  );
  return { get: (id: string | null): Person | null => (id ? (byId.get(id) ?? null) : null) };
}
