import type { Locator, Page } from './fixtures.ts';

/**
 * SHOTS_DIR=<dir> photographs the page at 1366x900 and 390x844 as
 * `<name>-<w>x<h>.png` (the whole page unless `fullPage` is false). With a
 * `target`, the window scrolled to it and, beside it, `<name>-section-<w>x<h>.png`
 * of the target alone. Without SHOTS_DIR it does nothing.
 */
export async function shoot(page: Page, name: string, target?: Locator, { fullPage = true } = {}): Promise<void> {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  // The page goes back to the size it had: a spec running at 390×844 goes on at 390×844.
  const before = page.viewportSize() ?? { width: 1280, height: 720 };
  for (const [w, h] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    // The page lays itself out for the new width (a table becomes cards) before its picture is taken.
    await page.waitForTimeout(300);
    if (target) {
      await target.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${dir}/${name}-${w}x${h}.png` });
      await target.screenshot({ path: `${dir}/${name}-section-${w}x${h}.png` });
    } else {
      await page.screenshot({ path: `${dir}/${name}-${w}x${h}.png`, fullPage });
    }
  }
  await page.setViewportSize(before);
}

/** The desk's screens: shoot's two sizes, and the desk's laptop, 1280×720, of the window as it is. */
export async function shootDesk(page: Page, name: string, target?: Locator, options?: { fullPage?: boolean }): Promise<void> {
  await shoot(page, name, target, options);
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  const before = page.viewportSize() ?? { width: 1280, height: 720 };
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${dir}/${name}-1280x720.png` });
  await page.setViewportSize(before);
}
