import { expect, type Page } from './fixtures.ts';
import { AxeBuilder } from '@axe-core/playwright';

type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/** One line per failing node: rule, impact, selector and axe's own summary of what to fix. */
function readable(violations: Violation[]): string[] {
  return violations.flatMap((v) =>
    v.nodes.map((node) => `${v.id} (${v.impact ?? 'sin impacto'}): ${v.help} — ${node.target.join(' ')} — ${(node.failureSummary ?? '').replace(/\s+/g, ' ')}`),
  );
}

/**
 * Runs axe-core (every rule of its default set: WCAG 2 A/AA and best practices)
 * on the page as it is once its data has arrived, and expects nothing.
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  // The sections fetch their data after the first paint; axe must see what a visitor sees.
  await page.waitForLoadState('networkidle');
  const { violations } = await new AxeBuilder({ page }).analyze();
  // axe finishes its run in a page of its own, which takes the window's focus: the page under test gets it back, so
  // what the spec checks next (where the keyboard is) reads as a person would find it.
  await page.bringToFront();
  expect(readable(violations), `axe-core en ${page.url()}`).toEqual([]);
}
