/**
 * Loading what a test provider page shows for its `?session=` id: 'loading', 'ready' with the data,
 * or 'failed' with a message (an unknown or missing session says `notFound` and offers no retry;
 * a server or network failure offers one). `set` replaces the data after an action on the page.
 */
import { useCallback, useEffect, useState } from 'react';
import type { ApiResult } from '../../lib/browser/api.ts';
import { failureMessage, worthRetry } from '../../lib/browser/payments/test-provider.ts';
import { sessionParam } from './test-pages.ts';

export type SessionLoad<T> = { status: 'loading' } | { status: 'failed'; message: string; retry: boolean } | { status: 'ready'; data: T };

export function useSessionLoad<T>(fetcher: (sessionId: string, signal: AbortSignal) => Promise<ApiResult<T>>, notFound: string) {
  const [sessionId] = useState(() => sessionParam(window.location.search));
  const [load, setLoad] = useState<SessionLoad<T>>(() =>
    sessionId ? { status: 'loading' } : { status: 'failed', message: notFound, retry: false },
  );
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!sessionId) return;
    const controller = new AbortController();
    fetcher(sessionId, controller.signal)
      .then((result) => {
        if (result.ok) setLoad({ status: 'ready', data: result.data });
        else if (result.kind === 'not-found') setLoad({ status: 'failed', message: notFound, retry: false });
        else setLoad({ status: 'failed', message: failureMessage(result), retry: worthRetry(result) });
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [fetcher, notFound, sessionId, attempt]); // the pages pass module-level constants

  const retry = useCallback(() => {
    setLoad({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);
  const set = useCallback((data: T) => setLoad({ status: 'ready', data }), []);
  return { sessionId, load, retry, set };
}
