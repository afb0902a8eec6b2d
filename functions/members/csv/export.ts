/**
 * GET /api/admin/members/export.csv (issue 35): the filtered members as the file an import reads back, one
 * line each, oldest first. What an import can make again is written so it comes back the same:
 * export, import on a fresh install, export again gives the same file. `comp_level` and `comp_until`
 * are the access given without payment (a comp or a gift: the import makes it a comp), `paid_access`
 * what a subscription or purchase gives (for reading: the payment provider holds it, and the
 * `stripe_customer_id` column links the member to it again).
 */
import { accessRank } from '#shared/access.ts';
import type { CsvColumn } from '#shared/members.ts';
import type { ExportRow } from '../roster/store.ts';
import { membersCsv } from './cells.ts';

const GIVEN = new Set(['comp', 'gift']);

/** The comp or gift that gives the most: the highest level, then the one lasting longest (open lasts longest). */
function given(grants: NonNullable<ExportRow['grants']>) {
  const lasting = (g: { endsAt: string | null }) => g.endsAt ?? '9999';
  return grants
    .filter((g) => GIVEN.has(g.source))
    .sort((a, b) => accessRank(b.level as never) - accessRank(a.level as never) || (lasting(b) < lasting(a) ? -1 : 1))[0];
}

const paid = (grants: NonNullable<ExportRow['grants']>) =>
  grants
    .filter((g) => !GIVEN.has(g.source))
    .map((g) => [g.level, g.source, g.endsAt].filter(Boolean).join(' '))
    .join(';');

const iso = (d: Date | null) => (d ? d.toISOString() : '');

export function exportLine(r: ExportRow): Record<CsvColumn, string> {
  const grants = r.grants ?? [];
  const comp = given(grants);
  return {
    email: r.email,
    name: r.name ?? '',
    access_level: r.accessLevel,
    comp_level: comp?.level ?? '',
    comp_until: comp?.endsAt ?? '',
    paid_access: paid(grants),
    labels: r.labels ?? '',
    newsletter: r.newsletter === null ? '' : r.newsletter ? 'yes' : 'no',
    list_status: r.listStatus ?? '',
    consent_at: r.listStatus ? iso(r.consentAt) : '',
    consent_source: r.consentSource ?? '',
    suppressed: r.suppressed ?? '',
    signup_referrer: r.signupReferrer ?? '',
    signup_utm_source: r.signupUtmSource ?? '',
    signup_utm_medium: r.signupUtmMedium ?? '',
    signup_utm_campaign: r.signupUtmCampaign ?? '',
    stripe_customer_id: r.customerId ?? '',
    created_at: iso(r.createdAt),
  };
}

/** The file of these members. */
export const exportCsv = (rows: ExportRow[]) => membersCsv(rows.map(exportLine));
