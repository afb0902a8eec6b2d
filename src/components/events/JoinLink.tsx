/**
 * The join button of a registered member of an online event: asked of the server (`GET
 * /api/events/{slug}/join`) only once the link has opened, 15 minutes before the start, and shown
 * then; until then a line says when it appears (in the member's own zone). The server decides: a level
 * that no longer includes the event gets its answer instead of a link, and a clock ahead of the
 * server's gets the 409 with `opensAt`, so the button asks again shortly. Browser only.
 */
import { useEffect, useState } from 'react';
import { formatTimeOfDay, localTimeZone } from '#shared/events/format.ts';
import { fetchJoinLink, type JoinResult } from './events-api.ts';

const JOIN_BOX = 'inline-flex min-h-11 items-center rounded-lg px-5 py-2.5 text-sm font-semibold';
/** White on emerald-700 (#007a55) is 5.4:1 (AA for this text; emerald-600, #009966, was 3.65:1). */
const JOIN = `${JOIN_BOX} bg-emerald-700 text-white hover:bg-emerald-800`;
/** How soon to ask again when the server says the link is not open yet (this browser's clock runs ahead). */
const RETRY_MS = 15_000;

type Link = { status: 'asking' } | { status: 'ready'; url: string } | { status: 'refused'; message: string };

/** What a refusal says to the member. */
function refusal(result: Exclude<JoinResult, { ok: true } | { kind: 'not-open' }>): string {
  if (result.kind === 'error' || result.kind === 'not-found') return result.message;
  return result.kind === 'signed-out' ? 'Sign in again to get the join link.' : 'Your access level no longer includes this event.';
}

export function JoinLink({ slug, open, opensAt }: { slug: string; open: boolean; opensAt: Date }) {
  const [link, setLink] = useState<Link>({ status: 'asking' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    let retry: ReturnType<typeof setTimeout> | undefined;
    fetchJoinLink(slug, controller.signal)
      .then((result) => {
        if (result.ok) setLink({ status: 'ready', url: result.data.url });
        else if (result.kind === 'not-open') retry = setTimeout(() => setAttempt((n) => n + 1), RETRY_MS);
        else setLink({ status: 'refused', message: refusal(result) });
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
        The join button appears here 15 minutes before the start ({formatTimeOfDay(opensAt, localTimeZone())}).
      </p>
    );
  if (link.status === 'ready')
    return (
      <a href={link.url} target="_blank" rel="noopener noreferrer" className={JOIN}>
        Join the event
      </a>
    );
  if (link.status === 'refused') return <p className="text-sm text-slate-700">{link.message}</p>;
  // While the server is asked: the button's own box (its label unseen), so the row around it keeps its shape.
  return (
    <span aria-hidden="true" className={`${JOIN_BOX} animate-pulse bg-slate-200 text-transparent`}>
      Join the event
    </span>
  );
}
