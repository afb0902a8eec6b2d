/**
 * The member's private RSS feed (beyond the spec): the link, a Copy button, and Reset link, which
 * makes a new link and stops the old one (for a link that was shared or leaked).
 */
import { useEffect, useId, useState } from 'react';
import { fetchMemberFeed, resetMemberFeed } from '../../lib/browser/api.ts';
import { toast } from '../../lib/browser/toast.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';

const button = 'min-h-11 rounded-lg px-5 py-2.5 text-sm font-semibold disabled:opacity-60';

function failed() {
  toast({ title: 'Error', description: 'Something went wrong. Please try again.', variant: 'destructive' });
}

export function MemberFeedCard({ className }: { className: string }) {
  const id = useId();
  const [url, setUrl] = useState<string | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [resetting, setResetting] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    fetchMemberFeed(controller.signal)
      .then((result) => (result.ok ? setUrl(result.data.url) : setLoadFailed(true)))
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, []);

  async function copy() {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: 'Copied', description: 'Your private feed link is on the clipboard.' });
    } catch {
      toast({ title: 'Error', description: 'Copying is not available here. Select the link and copy it.', variant: 'destructive' });
    }
  }

  async function reset() {
    setResetting(true);
    const result = await resetMemberFeed();
    setResetting(false);
    if (!result.ok) return failed();
    setUrl(result.data.url);
    setLoadFailed(false);
    toast({ title: 'Feed link reset', description: 'The old link has stopped working. Use the new one in your feed reader.' });
  }

  return (
    <section aria-labelledby={`${id}-heading`} className={`${className} space-y-4`}>
      <h2 id={`${id}-heading`} className="text-lg font-semibold text-slate-900">
        Private RSS feed
      </h2>
      <p className="text-sm text-slate-700">
        Follow the blog in your feed reader. This link is yours alone: it carries the full text of every article your plan lets you read, so
        keep it private.
      </p>
      <div>
        <label htmlFor={`${id}-url`} className="block text-sm font-medium text-slate-700">
          Your feed link
        </label>
        <div className="flex flex-wrap gap-2 sm:flex-nowrap">
          <input
            id={`${id}-url`}
            readOnly
            value={url ?? (loadFailed ? '' : 'Loading…')}
            onFocus={(e) => e.currentTarget.select()}
            className={`${INPUT_CLASS} bg-slate-50 font-mono text-xs`}
          />
          <button
            type="button"
            onClick={() => void copy()}
            disabled={!url}
            className={`${button} mt-1 ring-1 ring-inset ring-slate-300 hover:bg-slate-50`}
          >
            Copy
          </button>
        </div>
        {loadFailed && !url && <p className="mt-1 text-sm text-red-700">We could not load your feed link. Reset it to make a new one.</p>}
      </div>
      <div>
        <button
          type="button"
          onClick={() => void reset()}
          disabled={resetting}
          className={`${button} text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50`}
        >
          {resetting ? 'Resetting…' : 'Reset link'}
        </button>
        <p className="mt-2 text-sm text-slate-500">Resetting makes a new link; the old one stops working at once.</p>
      </div>
    </section>
  );
}
