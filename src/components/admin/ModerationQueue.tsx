/**
 * The moderation queue: held posts (new accounts' first posts with links) and posts with open
 * reports, the longest waiting first, each with its place, author, text and reports, and what staff
 * can do to it. After every action the queue is read again, so what another moderator did shows too.
 */
import { useCallback, useEffect, useState } from 'react';
import { failureText, loadQueue, type QueueItem } from './moderation-api.ts';
import { ModerationItem } from './ModerationItem.tsx';

const BUTTON = 'min-h-10 rounded-lg px-4 py-2 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50';

export function ModerationQueue() {
  const [items, setItems] = useState<QueueItem[] | null>(null);
  const [error, setError] = useState('');
  const [round, setRound] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    loadQueue(controller.signal)
      .then((result) => {
        if (result.ok) {
          setItems(result.data.items);
          setError('');
        } else setError(failureText(result, 'The queue could not be loaded.'));
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [round]);

  const reload = useCallback(() => setRound((n) => n + 1), []);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600">
          {items === null ? '' : items.length === 1 ? '1 post waits for review.' : `${items.length} posts wait for review.`}
        </p>
        <button type="button" className={BUTTON} onClick={reload}>
          Refresh
        </button>
      </div>
      {error ? (
        <p role="alert" className="text-red-700">
          {error}
        </p>
      ) : items === null ? (
        <p role="status" className="text-slate-600">
          Loading the queue...
        </p>
      ) : items.length === 0 ? (
        <p className="text-slate-600">Nothing waits for review: no held posts and no open reports.</p>
      ) : (
        <ul className="space-y-4" aria-label="Moderation queue">
          {items.map((item) => (
            <ModerationItem key={`${item.post.id}-${item.post.status}-${item.reports.length}`} item={item} onDone={reload} />
          ))}
        </ul>
      )}
    </div>
  );
}
