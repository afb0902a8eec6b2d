/**
 * "Explore Services" scrolls to the services section of the page when there is one (smoothly,
 * unless the visitor prefers reduced motion) and moves keyboard focus to its heading, so the next
 * Tab continues from there; otherwise the link's own href (/services) applies.
 */
export const SERVICES_SECTION_ID = 'services';

export function initExploreServices(): void {
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-explore-services]')) {
    link.addEventListener('click', (e) => {
      const section = document.getElementById(SERVICES_SECTION_ID);
      if (!section) return;
      e.preventDefault();
      const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      section.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
      section.querySelector<HTMLElement>('h2[tabindex]')?.focus({ preventScroll: true });
    });
  }
}
