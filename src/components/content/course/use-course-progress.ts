/**
 * A signed-in member's progress in one course (beyond the spec): loaded when they may open the
 * course, and updated from the server's answer whenever a lesson is visited or marked complete.
 * Visitors and members the course does not open for (below its level, or not its buyers when it is
 * sold only on its own) have none (null).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AccessLevel } from '#shared/access.ts';
import { fetchCourseProgress, recordCourseProgress, type CourseProgress } from '../../../lib/browser/api.ts';
import type { PricedItem } from '#shared/payments/purchasable.ts';
import { toast } from '../../../lib/browser/toast.ts';
import { guessAccess, useViewer } from '../gated/use-viewer.ts';

export interface CourseProgressApi {
  /** The member's progress; null when there is none to show (yet). */
  progress: CourseProgress | null;
  /** Records a lesson as the last one viewed. */
  visit: (lessonId: string) => void;
  /** Marks a lesson complete or not complete. */
  setComplete: (lessonId: string, completed: boolean) => Promise<void>;
}

export function useCourseProgress(slug: string, required: AccessLevel | PricedItem): CourseProgressApi {
  const viewer = useViewer();
  const guess = guessAccess(viewer, required);
  const mayOpen = guess === 'allowed' || guess === 'unknown';
  // Progress belongs to one member: kept with their id so another member never sees it.
  const owner = viewer.status === 'signed-in' && mayOpen ? viewer.userId : null;
  const [kept, setKept] = useState<{ owner: string; progress: CourseProgress } | null>(null);

  useEffect(() => {
    if (!owner) return;
    const controller = new AbortController();
    fetchCourseProgress(slug, controller.signal)
      .then((result) => {
        if (result.ok) setKept({ owner, progress: result.data });
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [slug, owner]);

  const progress = kept && kept.owner === owner ? kept.progress : null;
  const ready = progress !== null;

  // Writes go out one at a time, in order, and only the answer to the latest one is shown: a quick
  // uncheck-then-check never flickers back or lands out of order on the server.
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const latest = useRef(0);
  const write = useCallback(
    (body: Parameters<typeof recordCourseProgress>[1], fallback: CourseProgress | null) => {
      if (!owner) return;
      const ticket = ++latest.current;
      const sent = queue.current.then(() => recordCourseProgress(slug, body));
      queue.current = sent.catch(() => undefined);
      void sent.then((result) => {
        if (ticket !== latest.current) return;
        if (result.ok) setKept({ owner, progress: result.data });
        else if (fallback) {
          setKept({ owner, progress: fallback });
          toast({ title: 'Error', description: 'We could not save your progress. Please try again.', variant: 'destructive' });
        }
      });
    },
    [slug, owner],
  );

  const lastVisit = useRef<string | null>(null);
  const visit = useCallback(
    (lessonId: string) => {
      if (!ready || !owner || lastVisit.current === `${owner}:${lessonId}`) return;
      lastVisit.current = `${owner}:${lessonId}`;
      write({ lessonId }, null);
    },
    [owner, ready, write],
  );

  const setComplete = useCallback(
    async (lessonId: string, completed: boolean) => {
      if (!owner || !progress) return;
      // Shown at once; the server's answer (or the old state, on failure) replaces it.
      const before = progress;
      const others = before.completed.filter((id) => id !== lessonId);
      setKept({ owner, progress: { ...before, completed: completed ? [...others, lessonId] : others } });
      write({ lessonId, completed }, before);
    },
    [owner, progress, write],
  );

  return { progress, visit, setComplete };
}
