import type { LaunchOptions } from '@playwright/test';

/**
 * Debian's Chromium as every project launches it: no sandbox (root in CI),
 * and none of the background connections this closed network would refuse.
 */
export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};
