/**
 * Segments in the Users tab (issue 35): the current filter saved under a name (the newsletter can
 * send to it), and the saved ones listed to apply (the filter form and list take its filter) or delete.
 * A segment keeps its filter, not its members, so applying it shows today's members.
 */
import { useId, useState, type FormEvent } from 'react';
import { SEGMENT_NAME_MAX_CHARS, type MemberFilter } from '#shared/members.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import { SMALL_BUTTON } from './MemberFilters.tsx';
import { createSegment, deleteSegment, reason, type Segment } from './members-api.ts';

type SegmentsBarProps = {
  filter: MemberFilter;
  segments: Segment[] | null;
  onApply: (filter: MemberFilter) => void;
  onChanged: () => void;
};

export function SegmentsBar({ filter, segments, onApply, onChanged }: SegmentsBarProps) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  const ids = useId();

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const result = await createSegment(name.trim(), filter);
    setBusy(false);
    if (!result.ok) return setMessage(reason(result, 'The segment could not be saved.'));
    setMessage(`Segment “${result.data.name}” saved.`);
    setName('');
    onChanged();
  }

  async function remove(segment: Segment) {
    const result = await deleteSegment(segment.id);
    setMessage(result.ok ? `Segment “${segment.name}” deleted.` : reason(result, 'The segment could not be deleted.'));
    if (result.ok) onChanged();
  }

  return (
    <section aria-labelledby={`${ids}-title`} className="rounded-2xl bg-white p-4 ring-1 ring-slate-200">
      <h3 id={`${ids}-title`} className="text-sm font-semibold text-slate-900">
        Segments
      </h3>
      <SegmentList segments={segments} onApply={onApply} onRemove={(segment) => void remove(segment)} />
      <form onSubmit={(e) => void save(e)} className="mt-3 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={`${ids}-name`} className="block text-sm font-medium text-slate-700">
            Segment name
          </label>
          <input
            id={`${ids}-name`}
            className={INPUT_CLASS}
            required
            maxLength={SEGMENT_NAME_MAX_CHARS}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <button type="submit" disabled={busy || !name.trim()} className={`${SMALL_BUTTON} bg-brand-600 text-white hover:bg-brand-700`}>
          Save as segment
        </button>
      </form>
      <p aria-live="polite" className="mt-2 text-sm text-slate-700">
        {message}
      </p>
    </section>
  );
}

type SegmentListProps = { segments: Segment[] | null; onApply: (filter: MemberFilter) => void; onRemove: (segment: Segment) => void };

/** The saved segments, each to apply or delete. */
function SegmentList({ segments, onApply, onRemove }: SegmentListProps) {
  return segments === null ? (
    <p className="mt-2 text-sm text-slate-600">Loading segments...</p>
  ) : segments.length === 0 ? (
    <p className="mt-2 text-sm text-slate-600">No saved segments yet.</p>
  ) : (
    <ul className="mt-2 flex flex-wrap gap-2" aria-label="Saved segments">
      {segments.map((s) => (
        <li key={s.id} aria-label={s.name} className="flex items-center gap-1 rounded-xl bg-slate-50 py-1 pl-3 pr-1 ring-1 ring-slate-200">
          <span className="text-sm font-medium text-slate-800">{s.name}</span>
          <button type="button" onClick={() => onApply(s.filter)} className={`${SMALL_BUTTON} text-brand-700 hover:bg-white`}>
            Apply<span className="sr-only"> {s.name}</span>
          </button>
          <button type="button" onClick={() => onRemove(s)} className={`${SMALL_BUTTON} text-red-700 hover:bg-white`}>
            Delete<span className="sr-only"> {s.name}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
