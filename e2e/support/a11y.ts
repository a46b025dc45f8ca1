import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** Serious WCAG A/AA violations, on the whole page or only within the given landmarks. */
export async function seriousViolations(page: Page, within: string[] = []) {
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']);
  for (const selector of within) builder.include(selector);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.html} (${n.failureSummary ?? ''})`).join(', ')}`);
}
