/** The ledger's rows as the API answers them: the member's own view, and staff's (with notes and who). */
import type { GrantView } from '#shared/payments/grants.ts';
import { isActive } from './ledger.ts';
import type { AccessGrantRow } from './tables.ts';

/** What a subscription's row adds: its cadence and next renewal. */
export interface SubscriptionFacts {
  interval: string | null;
  renewsAt: Date | null;
  cancelling: boolean | null;
}

/** A grant as the member reads it (no staff note). */
export function grantView(g: AccessGrantRow, facts?: SubscriptionFacts, now = new Date()): GrantView {
  return {
    id: g.id,
    accessLevel: g.accessLevel,
    source: g.source,
    startsAt: g.startsAt.toISOString(),
    endsAt: g.endsAt?.toISOString() ?? null,
    active: isActive(g, now),
    ...(g.source === 'gift' && g.detail ? { from: g.detail } : {}),
    ...(facts?.interval ? { interval: facts.interval } : {}),
    ...(facts?.renewsAt ? { renewsAt: facts.renewsAt.toISOString() } : {}),
    ...(facts?.cancelling ? { cancelling: true } : {}),
  };
}

/** A grant as staff read it on the member's card: who made it, the note, who ended it early. */
export function staffGrantView(g: AccessGrantRow, facts?: SubscriptionFacts, now = new Date()) {
  return { ...grantView(g, facts, now), sourceId: g.sourceId, createdBy: g.createdBy, note: g.note, endedBy: g.endedBy };
}
export type StaffGrantView = ReturnType<typeof staffGrantView>;

/** Active first, then those still to start, then ended ones; newest first within each. */
export function inDisplayOrder<T extends { grant: AccessGrantRow }>(rows: T[], now: Date): T[] {
  const rank = ({ grant }: T) => (isActive(grant, now) ? 0 : grant.startsAt > now ? 1 : 2);
  return [...rows].sort((a, b) => rank(a) - rank(b) || b.grant.startsAt.getTime() - a.grant.startsAt.getTime());
}
