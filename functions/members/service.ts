/**
 * Staff's tools for the members as a list (issue 35): the filter behind the Users tab, labels put on
 * and taken off in bulk (the filtered members, or chosen ones), and segments, named filters that the
 * newsletter also sends to. A segment keeps its filter, not its members: it is worked out again
 * whenever it is used, so "premium members who joined this year" is always today's list.
 */
import type { MemberFilter } from '#shared/members.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import { AppError } from '../platform/errors.ts';
import { createRosterStore, memberWhere } from './roster/store.ts';
import { createMemberStore } from './store.ts';

export const MAX_SEGMENTS = 100;

export function createMemberService({ db, clock = () => new Date() }: { db: DbOrTx; clock?: () => Date }) {
  const store = createMemberStore(db);
  const roster = createRosterStore(db);

  /** The members a bulk change applies to: the chosen ones among the filtered, or every filtered one. */
  async function targets(filter: MemberFilter, userIds: string[] | undefined): Promise<string[]> {
    const ids = await roster.ids(memberWhere(filter, clock()));
    if (!userIds) return ids;
    const chosen = new Set(userIds);
    return ids.filter((id) => chosen.has(id));
  }

  return {
    /** One page of the filtered members, newest first, with their labels, and how many the filter picks. */
    async page(filter: MemberFilter, offset: number, limit: number) {
      const { rows, total } = await roster.page(memberWhere(filter, clock()), offset, limit);
      const profiles = rows.map((r) => r.profile);
      return {
        rows: profiles,
        total,
        labels: await store.labelsOf(profiles.map((p) => p.id)),
        lastSeen: new Map(rows.map((r) => [r.profile.id, r.lastSeenAt])),
      };
    },

    /** Every member the filter picks, as the CSV file has them. */
    exportRows: (filter: MemberFilter) => roster.exportRows(memberWhere(filter, clock()), clock()),

    /** The ids of every member the filter picks (a segment's newsletter audience). */
    memberIds: (filter: MemberFilter) => roster.ids(memberWhere(filter, clock())),

    labels: () => store.labels(),

    /** Puts (`add`) or takes off (`remove`) labels on the filtered members (or the chosen ones among them). */
    async relabel({ filter, userIds, add, remove }: { filter: MemberFilter; userIds?: string[]; add: string[]; remove: string[] }) {
      const ids = await targets(filter, userIds);
      return db.transaction(async (tx) => {
        const txStore = createMemberStore(tx);
        const added = add.length ? await txStore.addLabels(ids, [...(await txStore.ensureLabels(add)).values()]) : 0;
        const gone = new Set(remove.map((r) => r.toLowerCase()));
        const known = remove.length ? (await txStore.labels()).filter((l) => gone.has(l.name.toLowerCase())) : [];
        const removed = await txStore.removeLabels(
          ids,
          known.map((l) => l.id),
        );
        return { members: ids.length, added, removed };
      });
    },

    async deleteLabel(id: string) {
      if (!(await store.deleteLabel(id))) throw new AppError('not_found', 'No such label.');
    },

    segments: () => store.segments(),

    async createSegment(name: string, filter: MemberFilter, createdBy: string) {
      if ((await store.segmentCount()) >= MAX_SEGMENTS)
        throw new AppError('conflict', `There are ${MAX_SEGMENTS} segments already; delete one first.`);
      const row = await store.createSegment({ name, filter, createdBy });
      if (!row) throw new AppError('conflict', 'A segment with this name exists already.');
      return row;
    },

    async deleteSegment(id: string) {
      if (!(await store.deleteSegment(id))) throw new AppError('not_found', 'No such segment.');
    },

    /** The members a segment picks now; none when it was deleted. */
    async segmentMembers(id: string): Promise<string[]> {
      const segment = await store.segment(id);
      return segment ? roster.ids(memberWhere(segment.filter, clock())) : [];
    },

    /** A segment's filter; undefined when there is no such segment (deleted since). */
    segmentFilter: async (id: string) => (await store.segment(id))?.filter,
  };
}

export type MemberService = ReturnType<typeof createMemberService>;
