import { test as base, type Page } from '@playwright/test';

export * from '@playwright/test';

/**
 * The portal's pages come pre-rendered and the app then replaces them
 * (decisions 026 and 031): acting in between finds nodes about to be
 * detached. `page.goto` and `page.reload` here return once the app has
 * started (`<html data-app="started">`), as a person would see the page
 * become the app, or once a page that starts it on demand is loaded
 * (`data-app="on-demand"`, the landing for a visitor: decision 054); pages that are not the portal's (the desk, an API answer)
 * return at once, and so does every page of a spec that turns JavaScript off.
 */
export const test = base.extend({
  page: async ({ page, javaScriptEnabled }, use) => {
    // Without JavaScript the server's page is the page: nothing to wait for.
    if (javaScriptEnabled === false) return use(page);
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      await appStarted(page, options?.waitUntil);
      return response;
    };
    const reload = page.reload.bind(page);
    page.reload = async (options) => {
      const response = await reload(options);
      await appStarted(page, options?.waitUntil);
      return response;
    };
    await use(page);
  },
});

async function appStarted(page: Page, waitUntil: string | undefined): Promise<void> {
  // A caller that asked for less than the load event wants the page as it comes.
  if (waitUntil === 'commit' || waitUntil === 'domcontentloaded') return;
  await page
    // The landing starts its app only when a visitor reaches for it (decision 054): 'on-demand' is the page as it stays.
    .waitForFunction(() => !document.getElementById('portal-state') || ['started', 'on-demand'].includes(document.documentElement.dataset.app ?? ''), null, {
      timeout: 15_000,
    })
    // A page that navigated away meanwhile, or an app that failed to start: the test's own expectations say what is wrong.
    .catch(() => undefined);
}
