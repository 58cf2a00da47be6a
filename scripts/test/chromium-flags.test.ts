import { chromium, type Browser } from '@playwright/test';
import { afterEach, describe, expect, it } from 'vitest';
import { browserChromeFeaturesOff, chromiumLaunchOptions } from '../../e2e/chromium.ts';

const opened: Browser[] = [];
afterEach(async () => {
  for (const browser of opened.splice(0)) await browser.close();
});

/** The browser's own command line as it started, and the targets its first page brought along. */
async function launched(options: Parameters<typeof chromium.launch>[0]) {
  const browser = await chromium.launch(options);
  opened.push(browser);
  const page = await (await browser.newContext()).newPage();
  const { targetInfos } = await (await browser.newBrowserCDPSession()).send('Target.getTargets');
  await page.goto('chrome://version');
  const commandLine = await page.locator('#command_line').innerText();
  // Chromium keeps the last of a repeated switch.
  const disabled = [...commandLine.matchAll(/--disable-features=(\S+)/g)].at(-1)?.[1]?.split(',') ?? [];
  return { disabled, targets: targetInfos.map((t) => t.url) };
}

describe("the suite's Chromium", () => {
  it("keeps every feature Playwright turns off, and starts no address-bar popup beside the page", { timeout: 60_000 }, async () => {
    const playwrights = await launched({ executablePath: chromiumLaunchOptions.executablePath });
    const ours = await launched(chromiumLaunchOptions);
    expect(ours.disabled).toEqual(expect.arrayContaining(playwrights.disabled));
    expect(ours.disabled).toEqual(expect.arrayContaining(browserChromeFeaturesOff));
    // Debian's earlier Chromium builds started the popup's page beside every window unless told not to; 150.0.7871 no longer
    // does by itself. Whichever runs, ours starts the page alone.
    expect(playwrights.targets.filter((url) => !url.startsWith('chrome://omnibox-popup'))).toEqual(['about:blank']);
    expect(ours.targets).toEqual(['about:blank']);
  });
});
