/**
 * POST /api/admin/members/import (issue 35): a members file written a thousand lines per transaction.
 * A dry run reads the file and asks the database what it would refuse (a payment customer another
 * member holds, an address with an account but no member) and writes nothing. The import makes an
 * account and a profile per new address, completes existing members (a name, a newsletter choice,
 * what is missing), puts the labels on, keeps list entries whose consent the file proves and sends
 * the double opt-in mail to the others, keeps suppressions, and gives a level only as a comp that
 * ends (comps.ts, audited as the importing admin's). Lines with a problem are left out and reported.
 */
import type { DbOrTx } from '../../platform/db/client.ts';
import { memberImports, type NewMemberRow } from '../../users/index.ts';
import { AppError } from '../../platform/errors.ts';
import { listImports, type ImportedListEntry } from '../../newsletter/index.ts';
import type { ProfileRow } from '../../users/index.ts';

import { createMemberStore } from '../store.ts';
import { checkMembersFile, lineBatches, type ImportLine, type RowError } from './parse.ts';
import { optIns, profileOf, provenEntry } from './rules.ts';

const BATCH = 1000;

/** What an import needs of other domains, given by compose.ts. */
export interface ImportDeps {
  db: { transaction: <T>(fn: (tx: DbOrTx) => Promise<T>) => Promise<T> } & DbOrTx;
  /** New accounts for these addresses, made in `tx` (the auth service's); their ids by address. */
  createAccounts: (tx: DbOrTx, list: { email: string; name: string | null }[]) => Promise<Map<string, string>>;
  /** A comp until a date in `tx`, audited as `actorId`'s, unless the member has the same one (the grants ledger). */
  addComp: (
    tx: DbOrTx,
    actorId: string,
    userId: string,
    comp: { accessLevel: 'subscriber' | 'premium'; until: Date; note: string },
  ) => Promise<unknown>;
  /** Told of the profiles a batch made, in its transaction (the member.created webhook). */
  created?: (tx: DbOrTx, profiles: NewMemberRow[]) => Promise<void>;
  /** Records consent and sends the double opt-in mail (the newsletter's public subscribe). */
  subscribe: (email: string, source: string | null) => Promise<void>;
  clock?: () => Date;
}

export function createMemberImport(deps: ImportDeps) {
  const { db, createAccounts, addComp, subscribe, created, clock = () => new Date() } = deps;

  /** The lines of one batch the database refuses: a customer another member holds. */
  async function refused(tx: DbOrTx, lines: ImportLine[], existing: Map<string, ProfileRow>): Promise<RowError[]> {
    const customers = lines.map((l) => l.customerId).filter((c): c is string => Boolean(c));
    const holders = await memberImports(tx).customerHolders(customers);
    return lines.flatMap((l) => {
      const holder = l.customerId ? holders.get(l.customerId) : undefined;
      return holder && holder !== existing.get(l.email)?.id
        ? [{ row: l.row, message: `stripe_customer_id ${l.customerId} belongs to another member.` }]
        : [];
    });
  }

  /** Writes one batch; answers what it made, its refused lines, and the mails that wait for the commit. */
  async function writeBatch(tx: DbOrTx, actorId: string, lines: ImportLine[]) {
    const profiles = memberImports(tx);
    const existing = await profiles.byEmails(lines.map((l) => l.email));
    const errors = await refused(tx, lines, existing);
    const bad = new Set(errors.map((e) => e.row));
    const good = lines.filter((l) => !bad.has(l.row));
    const fresh = good.filter((l) => !existing.has(l.email));
    const ids = await createAccounts(
      tx,
      fresh.map((l) => ({ email: l.email, name: l.name })),
    );
    const made = fresh.filter((l) => ids.has(l.email));
    for (const l of fresh.filter((l) => !ids.has(l.email)))
      errors.push({ row: l.row, message: `${l.email} has a sign-in account but no member profile; ask them to sign in once.` });
    const inserted = await profiles.create(made.map((l) => ({ ...profileOf(l), id: ids.get(l.email)! })));
    // A sign-up or another import took an address or a customer meanwhile: the batch goes back whole.
    if (inserted.length !== made.length) throw new AppError('conflict', 'Members changed while the file was imported; import it again.');
    await created?.(tx, inserted);
    const updated = good.filter((l) => existing.has(l.email));
    for (const l of updated) await profiles.complete(existing.get(l.email)!, profileOf(l));
    const written = [...made, ...updated];
    const idOf = (l: ImportLine) => ids.get(l.email) ?? existing.get(l.email)!.id;
    await labelLines(tx, written, idOf);
    const list = listImports(tx);
    const listed = await list.listed(written.filter((l) => l.list || l.newsletter).map((l) => l.email));
    const unlisted = written.filter((l) => l.list && !listed.has(l.email));
    await list.keep(unlisted.map(provenEntry).filter((e): e is ImportedListEntry => e !== null));
    await list.suppress(written.filter((l) => l.suppressed).map((l) => ({ address: l.email, reason: l.suppressed! })));
    for (const l of written.filter((w) => w.comp))
      await addComp(tx, actorId, idOf(l), { accessLevel: l.comp!.level, until: l.comp!.until, note: 'Imported' });
    return { created: made.length, updated: updated.length, errors, optIns: optIns(written, listed) };
  }

  async function labelLines(tx: DbOrTx, lines: ImportLine[], idOf: (l: ImportLine) => string) {
    const store = createMemberStore(tx);
    const labelIds = await store.ensureLabels(lines.flatMap((l) => l.labels));
    const pairs = lines.flatMap((l) => l.labels.map((name) => ({ userId: idOf(l), labelId: labelIds.get(name.toLowerCase())! })));
    await store.addLabelPairs(pairs);
  }

  return {
    /** `?dryRun=1`: every line's problem, the database's included; nothing written. */
    async dryRun(bytes: Uint8Array) {
      const now = clock();
      const file = checkMembersFile(bytes, now);
      const { errors, rows } = file;
      for await (const part of lineBatches(file, now, BATCH))
        errors.push(...(await refused(db, part, await memberImports(db).byEmails(part.map((l) => l.email)))));
      return { rows, errors: errors.sort((a, b) => a.row - b.row) };
    },

    /** The import: the good lines written, a batch at a time as the file is read again, the others reported. */
    async run(actorId: string, bytes: Uint8Array) {
      const now = clock();
      const file = checkMembersFile(bytes, now);
      const { errors } = file;
      let created = 0;
      let updated = 0;
      for await (const part of lineBatches(file, now, BATCH)) {
        const done = await db.transaction((tx) => writeBatch(tx, actorId, part));
        created += done.created;
        updated += done.updated;
        errors.push(...done.errors);
        for (const { email, source } of done.optIns) await subscribe(email, source);
      }
      return { created, updated, errors: errors.sort((a, b) => a.row - b.row) };
    },
  };
}

export type MemberImport = ReturnType<typeof createMemberImport>;
