import { accessLabel, type AccessLevel } from '../../lib/access.ts';

const STYLE: Record<AccessLevel, string> = {
  free: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  subscriber: 'bg-blue-50 text-blue-700 ring-blue-600/20',
  premium: 'bg-purple-50 text-purple-700 ring-purple-600/20',
};

/** Small label naming the level an item requires. */
export function AccessBadge({ level }: { level: AccessLevel }) {
  return (
    <span className={`inline-flex items-center rounded-md px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${STYLE[level]}`}>
      {accessLabel(level)}
    </span>
  );
}
