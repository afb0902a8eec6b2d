/**
 * Now, for an island whose look changes at known moments (the join link opening, the event ending):
 * it renders again when each of `moments` passes, without polling. Browser only.
 */
import { useEffect, useState } from 'react';

/** setTimeout's longest delay; a later moment is reached in several waits. */
const LONGEST_WAIT = 2 ** 31 - 1;

export function useMoment(moments: readonly number[]): number {
  const [now, setNow] = useState(() => Date.now());
  const next = moments.filter((m) => m > now).sort((a, b) => a - b)[0];
  useEffect(() => {
    if (next === undefined) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(LONGEST_WAIT, Math.max(0, next - Date.now()) + 50));
    return () => clearTimeout(timer);
  }, [next, now]);
  return now;
}
