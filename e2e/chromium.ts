import type { LaunchOptions } from '@playwright/test';

/**
 * The features Playwright itself launches Chromium without (playwright-core's chromiumSwitches). Chromium keeps only
 * the last `--disable-features` of a command line, so ours repeats them; scripts/test/chromium-flags.test.ts fails
 * when an upgrade of Playwright adds one that is missing here.
 */
export const playwrightDisabledFeatures = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Debian's Chromium is the whole browser, headless: every window (one per Playwright context) also starts the
 * address bar's suggestion popup as a page of its own, which took about a third of a test's CPU on two cores.
 * No test types into an address bar.
 */
export const browserChromeFeaturesOff = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup', 'PreloadTopChromeWebUI'];

/**
 * Debian's Chromium as every project launches it: no sandbox (root in CI),
 * and none of the background connections this closed network would refuse.
 */
export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    `--disable-features=${[...playwrightDisabledFeatures, ...browserChromeFeaturesOff].join(',')}`,
  ],
};
