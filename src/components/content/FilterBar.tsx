import { useId } from 'react';
import type { ListFilterKind, ListFilters } from '#shared/content/filter.ts';
import { skillLabel } from '#shared/format.ts';

interface ChipGroupProps {
  label: string;
  options: readonly { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
}

/** A row of toggle chips; "All" clears, choosing the active chip clears it too. */
function ChipGroup({ label, options, value, onChange }: ChipGroupProps) {
  const base = 'rounded-full px-3 py-1 text-sm font-medium transition-colors cursor-pointer';
  const on = 'bg-brand-600 text-white hover:bg-brand-700';
  const off = 'bg-white text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50';
  return (
    <div role="group" aria-label={label} className="flex flex-wrap items-center gap-2">
      <span className="mr-1 text-sm font-medium text-slate-500">{label}:</span>
      <button type="button" aria-pressed={!value} onClick={() => onChange('')} className={`${base} ${!value ? on : off}`}>
        All
      </button>
      {options.map((o) => {
        const pressed = value.toLocaleLowerCase() === o.value.toLocaleLowerCase();
        return (
          <button
            key={o.value}
            type="button"
            aria-pressed={pressed}
            onClick={() => onChange(pressed ? '' : o.value)}
            className={`${base} ${pressed ? on : off}`}
          >
            {o.label}
          </button>
        );
      })}
    </div>
  );
}

export interface FilterBarProps {
  kinds: readonly ListFilterKind[];
  filters: ListFilters;
  tags: readonly string[];
  levels: readonly string[];
  searchPlaceholder: string;
  onChange: (next: Partial<ListFilters>) => void;
}

/** Search box and filter chips for the kinds a list supports. */
export function FilterBar({ kinds, filters, tags, levels, searchPlaceholder, onChange }: FilterBarProps) {
  const searchId = useId();
  const tagOptions = tags.map((t) => ({ value: t, label: t }));
  return (
    <div className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-slate-50/60 p-4">
      {kinds.includes('search') && (
        <div>
          <label htmlFor={searchId} className="sr-only">
            Search
          </label>
          <input
            id={searchId}
            type="search"
            value={filters.q}
            maxLength={100}
            placeholder={searchPlaceholder}
            onChange={(e) => onChange({ q: e.target.value })}
            className="w-full rounded-xl border border-slate-300 bg-white px-4 py-2.5 text-sm shadow-sm placeholder:text-slate-400 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
          />
        </div>
      )}
      {kinds.includes('tag') && tags.length > 0 && (
        <ChipGroup label="Tag" options={tagOptions} value={filters.tag} onChange={(tag) => onChange({ tag })} />
      )}
      {kinds.includes('category') && tags.length > 0 && (
        <ChipGroup label="Category" options={tagOptions} value={filters.category} onChange={(category) => onChange({ category })} />
      )}
      {kinds.includes('skillLevel') && levels.length > 0 && (
        <ChipGroup
          label="Skill level"
          options={levels.map((l) => ({ value: l, label: skillLabel(l) }))}
          value={filters.level}
          onChange={(level) => onChange({ level })}
        />
      )}
      {kinds.includes('price') && (
        <ChipGroup
          label="Price"
          options={[
            { value: 'free', label: 'Free' },
            { value: 'paid', label: 'Paid' },
          ]}
          value={filters.price}
          onChange={(price) => onChange({ price: price as ListFilters['price'] })}
        />
      )}
    </div>
  );
}
