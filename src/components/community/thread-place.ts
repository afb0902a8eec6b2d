/** Where a thread's breadcrumb leads: its category, or the article or lesson its comments sit under. */
import type { Thread } from './community-api.ts';

export function placeLink(place: Thread['place']): { href: string; label: string } {
  if (place.kind === 'category') return { href: `/community/${place.slug}`, label: place.name };
  if (place.type === 'blog') return { href: `/blog/${place.slug}`, label: 'Comments on the article' };
  return { href: `/courses/${place.slug}?lesson=${encodeURIComponent(place.lessonId)}`, label: 'Comments on the lesson' };
}
