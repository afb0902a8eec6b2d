/** Display formats shared by pages and islands. */
import { format } from 'date-fns/format';
import { parseISO } from 'date-fns/parseISO';

/** 'MMMM d, yyyy' (e.g. "March 4, 2026") for a YYYY-MM-DD or ISO date string. */
export function formatDate(value: string): string {
  const date = parseISO(value);
  return Number.isNaN(date.getTime()) ? value : format(date, 'MMMM d, yyyy');
}

/** Dollar price with two decimals; absent or 0 reads "Free". */
export function formatPrice(price: number | undefined): string {
  return price === undefined || price <= 0 ? 'Free' : `$${price.toFixed(2)}`;
}

const SKILL_LABELS: Record<string, string> = {
  beginner: 'Beginner',
  intermediate: 'Intermediate',
  advanced: 'Advanced',
};

export function skillLabel(level: string): string {
  return Object.hasOwn(SKILL_LABELS, level) ? SKILL_LABELS[level]! : level;
}
