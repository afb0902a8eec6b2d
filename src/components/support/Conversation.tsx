/**
 * A support request's messages, oldest first, as the member's page and staff's Support tab show them:
 * who wrote each (the member, a named staff member, or a deleted account), when, the text as written
 * (plain text: never read as HTML) and the attachment as a download. Staff also see internal notes,
 * marked as such. Browser only.
 */
import { useState } from 'react';
import { toast } from '../../lib/browser/toast.ts';
import { downloadAttachment, failureText, fileSize, type Message } from './support-api.ts';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function author(message: Message, viewer: 'member' | 'staff'): string {
  if (!message.fromStaff) return viewer === 'member' ? 'You' : (message.author?.name ?? 'Deleted member');
  return message.author ? `${message.author.name} (Beacon Growth)` : 'Beacon Growth support';
}

export function Conversation({ requestId, messages, viewer }: { requestId: string; messages: Message[]; viewer: 'member' | 'staff' }) {
  const [busy, setBusy] = useState<string | null>(null);

  async function download(message: Message) {
    setBusy(message.id);
    const result = await downloadAttachment(requestId, message);
    setBusy(null);
    if (!result.ok)
      toast({ title: 'Error', description: failureText(result, 'The attachment could not be downloaded.'), variant: 'destructive' });
  }

  return (
    <ol aria-label="Messages" className="flex flex-col gap-4">
      {messages.map((message) => (
        <li
          key={message.id}
          className={`rounded-2xl p-5 ring-1 ${
            message.internal ? 'bg-amber-50 ring-amber-300' : message.fromStaff ? 'bg-brand-50 ring-brand-200' : 'bg-white ring-slate-200'
          }`}
        >
          <p className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
            <span className="font-semibold text-slate-900">
              {author(message, viewer)}
              {message.internal && (
                <span className="ml-2 rounded bg-amber-200 px-2 py-0.5 text-xs font-semibold text-amber-900">Internal note</span>
              )}
            </span>
            <time dateTime={message.createdAt} className="text-slate-600">
              {when(message.createdAt)}
            </time>
          </p>
          <p className="mt-3 whitespace-pre-wrap wrap-anywhere text-slate-800">{message.body}</p>
          {message.attachment && (
            <button
              type="button"
              onClick={() => void download(message)}
              disabled={busy === message.id}
              className="mt-3 inline-flex min-h-11 items-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50 disabled:opacity-60"
            >
              <span aria-hidden="true">📎</span>
              <span className="wrap-anywhere">
                Download {message.attachment.name} ({fileSize(message.attachment.size)})
              </span>
            </button>
          )}
        </li>
      ))}
    </ol>
  );
}
