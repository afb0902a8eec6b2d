/**
 * The join button of a registered member: asked of the server (`GET /api/events/{slug}/join`) only
 * once the link has opened, 15 minutes before the start, and shown then; until then a line says when
 * it appears. The server decides: a level that no longer includes the event, or a clock ahead of the
 * server's, gets its answer instead of a link. Browser only.
 */
import { useEffect, useState } from 'react';
import { fetchJoinLink } from './events-api.ts';

const JOIN =
  'inline-flex min-h-11 items-center rounded-lg bg-emerald-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-emerald-700';

type Link = { status: 'asking' } | { status: 'ready'; url: string } | { status: 'refused'; message: string };

export function JoinLink({ slug, open, opensAt }: { slug: string; open: boolean; opensAt: Date }) {
  const [link, setLink] = useState<Link>({ status: 'asking' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    let retry: ReturnType<typeof setTimeout> | undefined;
    fetchJoinLink(slug, controller.signal)
      .then((result) => {
        // A 200 is always the link (the typed client also knows the 409's body, which `call` turns into an error).
        if (result.ok) {
          if ('url' in result.data) setLink({ status: 'ready', url: result.data.url });
        }
        // Our clock ran ahead of the server's: ask again shortly.
        else if (result.kind === 'error' && result.status === 409 && result.code === 'conflict' && /opens/.test(result.message))
          retry = setTimeout(() => setAttempt((n) => n + 1), 15_000);
        else
          setLink({
            status: 'refused',
            message: result.kind === 'error' || result.kind === 'not-found' ? result.message : refusal(result.kind),
          });
      })
      .catch(() => undefined); // aborted
    return () => {
      controller.abort();
      clearTimeout(retry);
    };
  }, [slug, open, attempt]);

  if (!open)
    return (
      <p className="text-sm text-slate-600">
        The join button appears here 15 minutes before the start ({opensAt.toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' })}).
      </p>
    );
  if (link.status === 'ready')
    return (
      <a href={link.url} target="_blank" rel="noopener noreferrer" className={JOIN}>
        Join the event
      </a>
    );
  if (link.status === 'refused') return <p className="text-sm text-slate-700">{link.message}</p>;
  return <span aria-hidden="true" className="inline-block h-11 w-36 animate-pulse rounded-lg bg-slate-200" />;
}

function refusal(kind: 'signed-out' | 'forbidden'): string {
  return kind === 'signed-out' ? 'Sign in again to get the join link.' : 'Your access level no longer includes this event.';
}
