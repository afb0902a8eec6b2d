import { tagOverflow } from '#shared/content/filter.ts';

export interface TagBadgesProps {
  tags: readonly string[];
  /** The tag currently used as a filter; its chip shows pressed. */
  active?: string;
  /** When given, tags are buttons that choose (or, if active, clear) the filter. */
  onSelect?: (tag: string) => void;
  max?: number;
}

const chip = 'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium';

/** At most `max` tags plus a "+N more" badge naming the rest in its title. */
export function TagBadges({ tags, active, onSelect, max = 3 }: TagBadgesProps) {
  const { shown, hidden } = tagOverflow(tags, max);
  if (tags.length === 0) return null;
  return (
    <ul className="relative z-10 flex flex-wrap gap-1.5" aria-label="Tags">
      {shown.map((tag) => {
        const pressed = active?.toLocaleLowerCase() === tag.toLocaleLowerCase();
        return (
          <li key={tag}>
            {onSelect ? (
              <button
                type="button"
                aria-pressed={pressed}
                onClick={() => onSelect(tag)}
                className={`${chip} cursor-pointer transition-colors ${
                  pressed ? 'bg-brand-600 text-white hover:bg-brand-700' : 'bg-brand-50 text-brand-700 hover:bg-brand-100'
                }`}
              >
                {tag}
              </button>
            ) : (
              <span className={`${chip} bg-brand-50 text-brand-700`}>{tag}</span>
            )}
          </li>
        );
      })}
      {hidden > 0 && (
        <li>
          <span className={`${chip} bg-slate-100 text-slate-600`} title={tags.slice(max).join(', ')}>
            +{hidden} more
          </span>
        </li>
      )}
    </ul>
  );
}
