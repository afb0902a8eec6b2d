/**
 * The Users tab's filter form (issue 35): search, level, what access rests on, billing state, label,
 * newsletter, sign-up source, and the joined and last-seen ranges. Search applies the filter to the
 * list (and to the bulk labels, the segment and the export beside it); Clear shows every member.
 * Each group is a fieldset with its legend, so a screen reader names every box.
 */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { ACCESS_LEVELS, accessLabel } from '#shared/access.ts';
import { FILTER_SOURCES, FILTER_STATUSES, type FilterStatus, type MemberFilter } from '#shared/members.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import type { Label } from './members-api.ts';

export const SMALL_BUTTON = 'min-h-9 rounded-lg px-3 py-1.5 text-sm font-semibold disabled:opacity-60';
const SOURCE_LABEL: Record<(typeof FILTER_SOURCES)[number], string> = {
  subscription: 'Subscription',
  purchase: 'Purchase',
  comp: 'Comp',
  gift: 'Gift',
  trial: 'Trial',
  offer: 'Offer price',
};
const STATUS_LABEL: Record<FilterStatus, string> = {
  active: 'Active',
  cancelling: 'Cancelling',
  past_due: 'Past due',
  none: 'No subscription',
};
const FIELDSET = 'rounded-xl p-3 ring-1 ring-slate-200';
const LEGEND = 'px-1 text-sm font-medium text-slate-700';

/** The filter without its empty fields (what the list, a segment and the export are given). */
export function cleanFilter(filter: MemberFilter): MemberFilter {
  return Object.fromEntries(
    Object.entries(filter).filter(([, v]) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0)),
  ) as MemberFilter;
}

/** A group of checkboxes for one list field of the filter. */
function Checks<T extends string>({
  legend,
  values,
  label,
  chosen,
  onChange,
}: {
  legend: string;
  values: readonly T[];
  label: (v: T) => string;
  chosen: readonly T[] | undefined;
  onChange: (next: T[]) => void;
}) {
  const set = new Set(chosen ?? []);
  return (
    <fieldset className={FIELDSET}>
      <legend className={LEGEND}>{legend}</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        {values.map((v) => (
          <label key={v} className="flex min-h-9 items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={set.has(v)}
              onChange={(e) => onChange(values.filter((x) => (x === v ? e.target.checked : set.has(x))))}
            />
            {label(v)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
    </div>
  );
}

type MemberFiltersProps = {
  initial: MemberFilter;
  labels: Label[];
  onApply: (filter: MemberFilter) => void;
};

export function MemberFilters({ initial, labels, onApply }: MemberFiltersProps) {
  const [draft, setDraft] = useState<MemberFilter>(initial);
  const ids = useId();
  const set: SetFilter = (key, value) => setDraft((d) => ({ ...d, [key]: value }));
  const text = (key: 'q' | 'signup' | 'joinedFrom' | 'joinedTo' | 'seenFrom' | 'seenTo'): TextInputProps => ({
    id: `${ids}-${key}`,
    className: INPUT_CLASS,
    value: draft[key] ?? '',
    onChange: (e: { target: { value: string } }) => set(key, e.target.value || undefined),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    onApply(cleanFilter({ ...draft, q: draft.q?.trim() || undefined, signup: draft.signup?.trim() || undefined }));
  }

  return (
    <form role="search" aria-label="Filter members" className="space-y-3" onSubmit={submit}>
      <SearchRow
        query={text('q')}
        onClear={() => {
          setDraft({});
          onApply({});
        }}
      />
      <details className="rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200" open={Object.keys(cleanFilter(initial)).some((k) => k !== 'q')}>
        <summary className="cursor-pointer text-sm font-semibold text-slate-800">More filters</summary>
        <div className="mt-3 grid gap-3 md:grid-cols-2">
          <Checks legend="Access level" values={ACCESS_LEVELS} label={accessLabel} chosen={draft.level} onChange={(v) => set('level', v)} />
          <Checks
            legend="Access rests on"
            values={FILTER_SOURCES}
            label={(v) => SOURCE_LABEL[v]}
            chosen={draft.source}
            onChange={(v) => set('source', v)}
          />
          <Checks
            legend="Billing status"
            values={FILTER_STATUSES}
            label={(v) => STATUS_LABEL[v]}
            chosen={draft.status}
            onChange={(v) => set('status', v)}
          />
          <LabelAndNewsletter ids={ids} labels={labels} draft={draft} set={set} />
          <fieldset className={`${FIELDSET} grid gap-3 sm:grid-cols-2`}>
            <legend className={LEGEND}>Joined</legend>
            <Field id={`${ids}-joinedFrom`} label="Joined from">
              <input type="date" {...text('joinedFrom')} />
            </Field>
            <Field id={`${ids}-joinedTo`} label="Joined until">
              <input type="date" {...text('joinedTo')} />
            </Field>
          </fieldset>
          <fieldset className={`${FIELDSET} grid gap-3 sm:grid-cols-2`}>
            <legend className={LEGEND}>Last seen</legend>
            <Field id={`${ids}-seenFrom`} label="Last seen from">
              <input type="date" {...text('seenFrom')} />
            </Field>
            <Field id={`${ids}-seenTo`} label="Last seen until">
              <input type="date" {...text('seenTo')} />
            </Field>
          </fieldset>
          <div className="md:col-span-2">
            <Field id={`${ids}-signup`} label="Sign-up source (referrer or UTM source, medium, campaign)">
              <input type="text" placeholder="e.g. newsletter or google.com" {...text('signup')} />
            </Field>
          </div>
        </div>
      </details>
    </form>
  );
}

/** Sets one field of the filter being drafted. */
type SetFilter = <K extends keyof MemberFilter>(key: K, value: MemberFilter[K]) => void;

/** The label and newsletter filters, each a choice of one. */
function LabelAndNewsletter({ ids, labels, draft, set }: { ids: string; labels: Label[]; draft: MemberFilter; set: SetFilter }) {
  return (
    <fieldset className={`${FIELDSET} grid gap-3 sm:grid-cols-2`}>
      <legend className={LEGEND}>Label and newsletter</legend>
      <Field id={`${ids}-label`} label="Label">
        <select
          id={`${ids}-label`}
          className={INPUT_CLASS}
          value={draft.label?.[0] ?? ''}
          onChange={(e) => set('label', e.target.value ? [e.target.value] : undefined)}
        >
          <option value="">Any label</option>
          {labels.map((l) => (
            <option key={l.id} value={l.name}>
              {l.name} ({l.members})
            </option>
          ))}
        </select>
      </Field>
      <Field id={`${ids}-newsletter`} label="Newsletter">
        <select
          id={`${ids}-newsletter`}
          className={INPUT_CLASS}
          value={draft.newsletter ?? ''}
          onChange={(e) => set('newsletter', (e.target.value || undefined) as MemberFilter['newsletter'])}
        >
          <option value="">Either</option>
          <option value="on">Subscribed</option>
          <option value="off">Not subscribed</option>
        </select>
      </Field>
    </fieldset>
  );
}

/** The props of a text input bound to one field of the draft. */
type TextInputProps = { id: string; className: string; value: string; onChange: (e: { target: { value: string } }) => void };

/** The search box over email and name, with Search and Clear filters. */
function SearchRow({ query, onClear }: { query: TextInputProps; onClear: () => void }) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div className="min-w-64 flex-1">
        <Field id={query.id} label="Search members">
          <input type="search" placeholder="Email or name" {...query} />
        </Field>
      </div>
      <button type="submit" className={`${SMALL_BUTTON} min-h-10 bg-brand-600 text-white hover:bg-brand-700`}>
        Search
      </button>
      <button type="button" className={`${SMALL_BUTTON} min-h-10 ring-1 ring-slate-300`} onClick={onClear}>
        Clear filters
      </button>
    </div>
  );
}
