/**
 * The Newsletter tab's audience counts: how many addresses each audience, and the editor's choice
 * together, would be mailed to now, as the server counts them with the send's own rules. Asked again
 * whenever the choice changes; an answer to an older choice is dropped. Browser only.
 */
import { useEffect, useState } from 'react';
import { audienceReach, type Audience, type AudienceReach } from './newsletter-api.ts';

export type ReachState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; reach: AudienceReach };

/** The reach of `selected`; nothing is asked while `enabled` is false (an issue that went out). */
export function useAudienceReach(selected: readonly Audience[], enabled: boolean): ReachState {
  const [state, setState] = useState<ReachState>({ status: 'loading' });
  const key = selected.join(',');
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    setState((s) => (s.status === 'ready' ? s : { status: 'loading' }));
    audienceReach(key ? (key.split(',') as Audience[]) : [], controller.signal)
      .then((result) => setState(result.ok ? { status: 'ready', reach: result.data } : { status: 'error' }))
      .catch(() => undefined); // aborted: a newer choice is being counted
    return () => controller.abort();
  }, [key, enabled]);
  return state;
}
