/**
 * Staff's actions on a thread (pin, lock, move, hide, delete and back), in the action's transaction:
 * visibility through the community store's `withdrawThread` and `publishThread`, so counts and the
 * cached lists follow.
 */
import type { ThreadAction } from '#shared/community/moderation.ts';
import type { Tx } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors.ts';
import { notifyChanged, publishThread, withdrawThread } from '../store.ts';
import type { ThreadStatus } from '../tables.ts';
import type { ThreadActionInput } from './schema.ts';
import type { ModerationStore } from './store.ts';

/** What a thread action changes (its log detail), or undefined when it was already so. */
export async function threadChange(
  tx: Tx,
  store: ModerationStore,
  threadId: string,
  status: ThreadStatus,
  from: string | null,
  { action, category }: ThreadActionInput,
): Promise<Record<string, unknown> | undefined> {
  const flag = async (name: 'pinned' | 'locked', value: boolean) => {
    if (!(await store.setThreadFlag(threadId, name, value))) return undefined;
    // Pins order the lists, locks show on them: every instance drops its cached lists.
    await notifyChanged(tx);
    return {};
  };
  switch (action as ThreadAction) {
    case 'pin':
    case 'unpin':
      return flag('pinned', action === 'pin');
    case 'lock':
    case 'unlock':
      return flag('locked', action === 'lock');
    case 'hide':
      if (status === 'hidden') return undefined;
      if (status === 'deleted') throw new AppError('conflict', 'This thread is deleted.');
      await withdrawThread(tx, threadId, 'hidden');
      return { from: status };
    case 'unhide':
      if (status !== 'hidden') throw new AppError('conflict', 'Only a hidden thread can be unhidden.');
      await publishThread(tx, threadId);
      return { from: status };
    case 'delete':
      if (status === 'deleted') return undefined;
      await withdrawThread(tx, threadId, 'deleted');
      return { from: status };
    case 'move': {
      const to = await store.categoryBySlug(category!);
      if (!to)
        throw new AppError('validation_failed', 'Some fields are not valid.', { fields: { category: ['No category with that slug'] } });
      if (to.slug === from) return undefined;
      await store.moveThread(threadId, to.id);
      await notifyChanged(tx);
      return { from, to: to.slug };
    }
  }
}
