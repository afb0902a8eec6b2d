/** axe in the browser tests: the serious and critical violations on the page as it is now (or in the part `include` selects). */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  // Only violations are read: axe skips collecting the passing, incomplete and inapplicable results' nodes.
  // Legacy mode runs axe in the page itself: the default opens a blank page per scan to merge each
  // frame's partial results (for cross-origin frames, which these pages do not have), 2.3 s a scan
  // against 0.9 s.
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).setLegacyMode(true);
  const { violations } = await (include ? builder.include(include) : builder)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`);
}
