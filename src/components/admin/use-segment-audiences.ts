/**
 * Staff's saved segments as newsletter audiences (issue 35): `segment:<id>` options after the fixed
 * ones. Segments are admins'; for an editor the list is refused and no segment is offered.
 */
import { useEffect, useState } from 'react';
import type { SegmentAudience } from '#shared/newsletter.ts';
import { fetchSegments } from './members-api.ts';

export function useSegmentAudiences(enabled: boolean): { id: SegmentAudience; label: string }[] {
  const [options, setOptions] = useState<{ id: SegmentAudience; label: string }[]>([]);
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    fetchSegments(controller.signal)
      .then((result) => {
        if (result.ok) setOptions(result.data.segments.map((s) => ({ id: `segment:${s.id}` as const, label: `Segment: ${s.name}` })));
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [enabled]);
  return options;
}
