import type { AccessLevel } from '#shared/access.ts';
import { accessBadge } from '#shared/payments/purchasable.ts';

const STYLE: Record<AccessLevel, string> = {
  free: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  subscriber: 'bg-blue-50 text-blue-700 ring-blue-600/20',
  premium: 'bg-purple-50 text-purple-700 ring-purple-600/20',
};
const SOLD_SEPARATELY = 'bg-amber-50 text-amber-800 ring-amber-600/20';

/**
 * Small label naming the level an item requires, with a tooltip saying what it means. A priced item
 * at the free level reads 'Sold separately' (no plan includes it), never 'Free' beside its price.
 */
export function AccessBadge({ level, price }: { level: AccessLevel; price?: number | undefined }) {
  const { label, hint, soldSeparately } = accessBadge(level, price);
  return (
    <span
      data-testid="access-badge"
      title={hint}
      className={`inline-flex items-center rounded-md px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${soldSeparately ? SOLD_SEPARATELY : STYLE[level]}`}
    >
      {label}
    </span>
  );
}
