/** The only module with SQL on labels, member labels and segments (issue 35). */
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { MemberFilter } from '#shared/members.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import type { DataSubject } from '../users/index.ts';
import { labels, memberLabels, segments } from './tables.ts';

/** Rows per INSERT (a bulk label change or an import of 50,000 members). */
const CHUNK = 1000;

const chunks = <T>(list: T[]) => Array.from({ length: Math.ceil(list.length / CHUNK) }, (_, i) => list.slice(i * CHUNK, (i + 1) * CHUNK));

/** What the parts of `createMemberStore` share. */
interface StoreDeps {
  db: DbOrTx;
}

/** Labels and which members carry them (and a member's part of the export and erasure). */
function labelRows({ db }: StoreDeps) {
  return {
    /** Every label with how many members carry it, by name. */
    labels: () =>
      db
        .select({
          id: labels.id,
          name: labels.name,
          members: sql<number>`(select count(*) from ${memberLabels} ml where ml.label_id = ${labels.id})::int`,
        })
        .from(labels)
        .orderBy(sql`lower(${labels.name})`),
    /** The ids of these label names, each made when missing (names match regardless of case). */
    async ensureLabels(names: string[]): Promise<Map<string, string>> {
      const unique = [...new Map(names.map((n) => [n.toLowerCase(), n])).values()];
      if (unique.length === 0) return new Map();
      await db
        .insert(labels)
        .values(unique.map((name) => ({ name })))
        .onConflictDoNothing();
      const rows = await db
        .select({ id: labels.id, name: labels.name })
        .from(labels)
        .where(
          inArray(
            sql`lower(${labels.name})`,
            unique.map((n) => n.toLowerCase()),
          ),
        );
      return new Map(rows.map((r) => [r.name.toLowerCase(), r.id]));
    },
    /** Puts labels on members (already there: unchanged); answers how many pairs were new. */
    async addLabels(userIds: string[], labelIds: string[]): Promise<number> {
      let added = 0;
      const pairs = userIds.flatMap((userId) => labelIds.map((labelId) => ({ userId, labelId })));
      for (const part of chunks(pairs)) added += (await db.insert(memberLabels).values(part).onConflictDoNothing().returning()).length;
      return added;
    },
    /** Puts each pair's label on its member (already there: unchanged). */
    async addLabelPairs(pairs: { userId: string; labelId: string }[]): Promise<void> {
      for (const part of chunks(pairs)) await db.insert(memberLabels).values(part).onConflictDoNothing();
    },
    /** Takes labels off members; answers how many pairs went. */
    async removeLabels(userIds: string[], labelIds: string[]): Promise<number> {
      if (labelIds.length === 0) return 0;
      let removed = 0;
      for (const part of chunks(userIds))
        removed += (
          await db
            .delete(memberLabels)
            .where(and(inArray(memberLabels.userId, part), inArray(memberLabels.labelId, labelIds)))
            .returning()
        ).length;
      return removed;
    },
    /** The label names of these members, by member. */
    async labelsOf(userIds: string[]): Promise<Map<string, string[]>> {
      const out = new Map<string, string[]>();
      if (userIds.length === 0) return out;
      const rows = await db
        .select({ userId: memberLabels.userId, name: labels.name })
        .from(memberLabels)
        .innerJoin(labels, eq(labels.id, memberLabels.labelId))
        .where(inArray(memberLabels.userId, userIds))
        .orderBy(sql`lower(${labels.name})`);
      for (const r of rows) out.set(r.userId, [...(out.get(r.userId) ?? []), r.name]);
      return out;
    },
    /** Deletes a label (and takes it off everyone); false when there was none. */
    async deleteLabel(id: string): Promise<boolean> {
      return (await db.delete(labels).where(eq(labels.id, id)).returning()).length > 0;
    },
    /** The member's part of their data export: the labels staff put on them. */
    async personalData({ id }: DataSubject) {
      return { labels: (await this.labelsOf([id])).get(id) ?? [] };
    },
    /** Their labels go with the account (the rows cascade too; said here so the deletion says it). */
    async erase({ id }: DataSubject) {
      await db.delete(memberLabels).where(eq(memberLabels.userId, id));
    },
  };
}

/** Saved segments of the member filter. */
function segmentRows({ db }: StoreDeps) {
  return {
    segments: () =>
      db
        .select()
        .from(segments)
        .orderBy(sql`lower(${segments.name})`),
    async segment(id: string) {
      const [row] = await db.select().from(segments).where(eq(segments.id, id));
      return row;
    },
    /** A new segment; undefined when its name is taken (regardless of case). */
    async createSegment(values: { name: string; filter: MemberFilter; createdBy: string }) {
      const [row] = await db.insert(segments).values(values).onConflictDoNothing().returning();
      return row;
    },
    async deleteSegment(id: string): Promise<boolean> {
      return (await db.delete(segments).where(eq(segments.id, id)).returning()).length > 0;
    },
    async segmentCount() {
      const [row] = await db.select({ n: count() }).from(segments);
      return row?.n ?? 0;
    },
    /** Segments by id, for the newsletter's audience names. */
    segmentsByIds: (ids: string[]) =>
      ids.length ? db.select().from(segments).where(inArray(segments.id, ids)).orderBy(asc(segments.name)) : Promise.resolve([]),
  };
}

export function createMemberStore(db: DbOrTx) {
  const deps: StoreDeps = { db };
  return { ...labelRows(deps), ...segmentRows(deps) };
}

export type MemberStore = ReturnType<typeof createMemberStore>;
