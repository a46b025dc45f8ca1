import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

export type ViolationOptions = {
  /** only within these selectors (landmarks); the whole page when empty */
  within?: string[];
  /**
   * every WCAG 2.0 and 2.1 A/AA violation, whatever impact axe gives it (minor and moderate too); without it,
   * only serious and critical WCAG 2.0 A/AA ones count
   */
  strict?: boolean;
};

/** Axe's WCAG A/AA violations on the page, one line each: `[impact] rule: the elements (why)`. */
export async function wcagViolations(page: Page, { within = [], strict = false }: ViolationOptions = {}) {
  const tags = strict ? ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] : ['wcag2a', 'wcag2aa'];
  // violations only: axe then builds no selector or HTML for the nodes that pass (every node of the page, for some
  // rules), which is most of a run's time and of what it sends back; the rules run and judge the same. (options()
  // replaces the builder's options, the tags' runOnly among them: it comes first.)
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).withTags(tags);
  for (const selector of within) builder.include(selector);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => strict || v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `[${v.impact ?? 'unknown'}] ${v.id}: ${v.nodes.map((n) => `${n.html} (${n.failureSummary ?? ''})`).join(', ')}`,
    );
}

/** Serious WCAG A/AA violations, on the whole page or only within the given landmarks. */
export async function seriousViolations(page: Page, within: string[] = []) {
  return wcagViolations(page, { within });
}
