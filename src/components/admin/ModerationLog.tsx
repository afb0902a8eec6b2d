/**
 * The moderation log, newest first, 50 at a time (More loads the next page): who did what, to which
 * thread, post or member, and when. Kept forever on the server; members named as they are now.
 */
import { useEffect, useState } from 'react';
import { LOG_ACTION_LABEL, type LogAction } from '#shared/community/moderation.ts';
import { failureText, loadLog, personLabel, type LogEntry } from './moderation-api.ts';

const BUTTON = 'min-h-10 rounded-lg px-4 py-2 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The entry in words: "Hid a post in “Title”", "Moved a thread “Title” from general to premium-lounge". */
export function describeEntry(entry: LogEntry): string {
  const d = entry.detail;
  const known = Object.hasOwn(LOG_ACTION_LABEL, entry.action);
  let what = known ? LOG_ACTION_LABEL[entry.action as LogAction] : entry.action;
  if (entry.action === 'hide' || entry.action === 'unhide' || entry.action === 'delete')
    what = `${what} ${entry.postId ? 'a post' : 'a thread'}`;
  const title = text(d.title);
  const where = title ? ` “${title}”` : '';
  if (entry.action === 'move') return `${what}${where} from ${text(d.from)} to ${text(d.to)}`;
  if (entry.action === 'suspend') {
    const until = text(d.until) ? `until ${new Date(text(d.until)).toLocaleString()}` : 'until lifted';
    return `${what}: ${personLabel(entry.target)}, ${until}${text(d.reason) ? ` (${text(d.reason)})` : ''}`;
  }
  if (entry.action === 'unsuspend') return `${what}: ${personLabel(entry.target)}`;
  if (entry.action.startsWith('category-')) return `${what}: ${text(d.slug)}`;
  const author = entry.targetUserId ? ` by ${personLabel(entry.target)}` : '';
  return `${what}${entry.postId ? author : ''}${where ? ` in${where}` : ''}`;
}

export function ModerationLog() {
  const [entries, setEntries] = useState<LogEntry[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    const controller = new AbortController();
    loadLog(cursor, controller.signal)
      .then((result) => {
        if (!result.ok) return setError(failureText(result, 'The log could not be loaded.'));
        setEntries((before) => [...(cursor ? (before ?? []) : []), ...result.data.items]);
        setNext(result.data.nextCursor);
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [cursor]);

  if (error)
    return (
      <p role="alert" className="text-red-700">
        {error}
      </p>
    );
  if (entries === null)
    return (
      <p role="status" className="text-slate-600">
        Loading the log...
      </p>
    );
  if (entries.length === 0) return <p className="text-slate-600">Nothing has been moderated yet.</p>;
  return (
    <div className="space-y-4">
      <ol className="divide-y divide-slate-200 rounded-2xl bg-white text-sm ring-1 ring-slate-200" aria-label="Moderation log">
        {entries.map((entry) => (
          <li key={entry.id} className="px-5 py-3">
            <time dateTime={entry.createdAt} className="text-slate-500">
              {new Date(entry.createdAt).toLocaleString()}
            </time>{' '}
            <span className="font-medium text-slate-900">{personLabel(entry.actor)}</span>{' '}
            <span className="text-slate-700">{describeEntry(entry)}</span>
          </li>
        ))}
      </ol>
      {next && (
        <button type="button" className={BUTTON} onClick={() => setCursor(next)}>
          More
        </button>
      )}
    </div>
  );
}
