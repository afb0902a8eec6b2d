/**
 * Who an issue reaches: the audience resolved to one recipient per lower-case address, which the
 * send writes its copies from (sending.ts), and the same resolution counted for the editor before
 * sending (`audienceReach`), so the Newsletter tab's numbers are exactly who would get a copy. A
 * member who is also on the list gets one copy, cut at their member level; one who turned the
 * newsletter off, and a suppressed address (a bounce, a complaint), are marked suppressed: a row,
 * no mail.
 */
import { effectiveLevel } from '#shared/access.ts';
import { AUDIENCES, isSegmentAudience, type Audience, type IssueAudience } from '#shared/newsletter.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { newsletterReaders } from '../../users/index.ts';
import { createNewsletterStore } from '../store.ts';
import type { CopyLevel } from './mail.ts';
import { createIssueStore } from './store.ts';

/** One recipient before their copy is written. */
export interface Recipient {
  address: string;
  userId: string | null;
  level: CopyLevel;
  suppressed: boolean;
}

/** The members a saved segment picks now, read in `tx` (the members domain's filter); none for a deleted segment. */
export type SegmentMembers = (tx: DbOrTx, segmentId: string) => Promise<string[]>;

/** The members of every segment in `audience` who get the newsletter (their choice, or their level's default). */
async function segmentReaders(tx: DbOrTx, audience: readonly IssueAudience[], segments: SegmentMembers | undefined) {
  const ids = new Set<string>();
  for (const a of audience.filter(isSegmentAudience)) for (const id of (await segments?.(tx, a.slice(8))) ?? []) ids.add(id);
  return newsletterReaders(tx).receiving([...ids]);
}

/** Who gets an issue sent to `audience`, one entry per lower-case address, in a stable order. */
export async function resolveAudience(tx: DbOrTx, audience: readonly IssueAudience[], segments?: SegmentMembers): Promise<Recipient[]> {
  const readers = newsletterReaders(tx);
  const byAddress = new Map<string, Recipient>();
  const levels = audience.filter((a): a is Exclude<Audience, 'newsletter'> => a !== 'newsletter' && !isSegmentAudience(a));
  for (const member of [...(await readers.atLevels(levels)), ...(await segmentReaders(tx, audience, segments))]) {
    byAddress.set(member.email.toLowerCase(), {
      address: member.email.toLowerCase(),
      userId: member.id,
      level: effectiveLevel(member),
      suppressed: false,
    });
  }
  if (audience.includes('newsletter')) {
    const list = (await createNewsletterStore(tx).confirmedAddresses()).map((a) => a.toLowerCase()).filter((a) => !byAddress.has(a));
    const members = new Map((await readers.byEmails(list)).map((m) => [m.email.toLowerCase(), m]));
    for (const address of list) {
      const member = members.get(address);
      // A member on the list gets the copy of their level; one who turned the newsletter off gets none.
      byAddress.set(
        address,
        member
          ? { address, userId: member.id, level: effectiveLevel(member), suppressed: member.newsletter === false }
          : { address, userId: null, level: null, suppressed: false },
      );
    }
  }
  const suppressed = await createIssueStore(tx).suppressedAddresses();
  const recipients = [...byAddress.values()].sort((a, b) => (a.address < b.address ? -1 : 1));
  for (const r of recipients) if (suppressed.has(r.address)) r.suppressed = true;
  return recipients;
}

/** How many addresses an issue would be mailed to now: each audience alone, and `selected` together (an address counted once). */
export interface AudienceReach {
  recipients: Record<Audience, number>;
  selected: number;
}

/** The copies a send would mail (suppressed ones get none). */
const mailed = (recipients: Recipient[]) => recipients.filter((r) => !r.suppressed).length;

/**
 * The reach of each audience and of the editor's choice, counted from `resolveAudience` itself (so
 * from the send's own rules), read in one transaction so the numbers are of one moment.
 */
export async function audienceReach(db: DbOrTx, selected: readonly IssueAudience[], segments?: SegmentMembers): Promise<AudienceReach> {
  return db.transaction(async (tx) => {
    const recipients = {} as Record<Audience, number>;
    for (const audience of AUDIENCES) recipients[audience] = mailed(await resolveAudience(tx, [audience]));
    const [only] = selected;
    const together =
      selected.length === 1 && !isSegmentAudience(only!)
        ? recipients[only as Audience]
        : selected.length
          ? mailed(await resolveAudience(tx, selected, segments))
          : 0;
    return { recipients, selected: together };
  });
}
