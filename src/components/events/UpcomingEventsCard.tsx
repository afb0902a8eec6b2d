/**
 * The account page's "Your upcoming events": the events the member registered for that are not over,
 * soonest first, each with its start in the member's own time zone, a link to its page and, once it
 * opens (15 minutes before the start), the join button. While it loads it keeps the room of its
 * empty state (the likeliest), as the account page's skeleton does. Browser only.
 */
import { startTransition, useEffect, useState, type ReactNode } from 'react';
import { formatWithZoneName, localTimeZone } from '#shared/events/format.ts';
import { warmIntl } from '../../lib/browser/intl-warm.ts';
import { fetchMyEvents, type MyEvent } from './events-api.ts';
import { JoinLink } from './JoinLink.tsx';
import { useMoment } from './use-moment.ts';
import { CardEmpty, CardFailure } from '../auth/AccountCardStates.tsx';
import { Reserved } from '../content/gated/LoadStates.tsx';

type State = { status: 'loading' } | { status: 'error' } | { status: 'ready'; events: MyEvent[] };

/** "Thu 10 Dec 2026, 15:00 GMT", in the member's own zone. */
const when = (startsAt: string) => formatWithZoneName(startsAt, localTimeZone());

const HEADING = 'upcoming-events-heading';
const empty = <CardEmpty text="You have not registered for an upcoming event." href="/events" link="Browse events" />;
const loading = <Reserved label="Loading your events…">{empty}</Reserved>;

function Shell({ className, children }: { className: string; children: ReactNode }) {
  return (
    <section aria-labelledby={HEADING} className={className}>
      <h2 id={HEADING} className="text-lg font-semibold text-slate-900">
        Your upcoming events
      </h2>
      {children}
    </section>
  );
}

/** The card while the account page loads. */
export function UpcomingEventsSkeleton({ className }: { className: string }) {
  return <Shell className={className}>{loading}</Shell>;
}

export function UpcomingEventsCard({ className }: { className: string }) {
  const [state, setState] = useState<State>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const now = useMoment(state.status === 'ready' ? state.events.map((e) => Date.parse(e.joinOpensAt)) : []);

  useEffect(() => {
    warmIntl();
    const controller = new AbortController();
    fetchMyEvents(controller.signal)
      .then((result) => startTransition(() => setState(result.ok ? { status: 'ready', events: result.data.events } : { status: 'error' })))
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [attempt]);

  return (
    <Shell className={className}>
      {state.status === 'loading' && loading}
      {state.status === 'error' && (
        <CardFailure
          message="We could not load your events."
          onRetry={() => {
            setState({ status: 'loading' });
            setAttempt((n) => n + 1);
          }}
        />
      )}
      {state.status === 'ready' && state.events.length === 0 && empty}
      {state.status === 'ready' && state.events.length > 0 && (
        <ul className="mt-4 flex flex-col gap-4">
          {state.events.map((event) => (
            <li key={event.slug} className="flex flex-wrap items-center justify-between gap-3">
              <div>
                <a href={`/events/${encodeURIComponent(event.slug)}`} className="font-semibold text-brand-700 hover:underline">
                  {event.title}
                </a>
                <p className="text-sm text-slate-600">{event.cancelled ? 'Cancelled' : when(event.startsAt)}</p>
              </div>
              {!event.cancelled && event.entitled && event.format === 'online' && now >= Date.parse(event.joinOpensAt) && (
                <JoinLink slug={event.slug} open opensAt={new Date(event.joinOpensAt)} />
              )}
            </li>
          ))}
        </ul>
      )}
    </Shell>
  );
}
