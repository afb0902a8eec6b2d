/**
 * Work that must commit with whatever a request writes, whichever store writes it: a hook set for
 * an async call chain (`withBeforeCommit`) runs at the end of every transaction that chain opens on
 * the database handle, inside it, just before it commits. The idempotency keys use it to record, in
 * the write's own transaction, that a keyed request's write committed (platform/idempotency), so the
 * stores need not know about keys. Savepoints (`tx.transaction`) are part of their transaction and
 * run no hook of their own.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db, Tx } from './database.ts';

/** Runs inside the transaction after its work; throwing rolls the transaction back. */
export type BeforeCommit = (tx: Tx) => Promise<void>;

const hooks = new AsyncLocalStorage<BeforeCommit>();

/** Runs `fn` with `hook` at the end of every transaction it opens (and whatever it calls opens). */
export function withBeforeCommit<T>(hook: BeforeCommit, fn: () => Promise<T>): Promise<T> {
  return hooks.run(hook, fn);
}

/** Makes `db.transaction` run the caller's hook; done once, where the database is opened. */
export function runCommitHooks(db: Db): Db {
  const transaction = db.transaction.bind(db);
  db.transaction = ((work, config) => {
    // Read where the transaction is asked for: a driver that queues the work may run it in another context.
    const hook = hooks.getStore();
    if (!hook) return transaction(work, config);
    return transaction(async (tx) => {
      const result = await work(tx);
      await hook(tx);
      return result;
    }, config);
  }) as Db['transaction'];
  return db;
}
