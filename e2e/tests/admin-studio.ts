import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from './fixtures.ts';
import { demoPassword } from './helpers.ts';
import { deskLink, deskWebProcess, finished, portalBuiltFromTree, repoRoot, run, serverProcess, stop, waitFor } from './desk-processes.ts';

/**
 * A server and a desk:web of one admin-console spec's own, started
 * before its tests and stopped after them; the tests run in order. With
 * `portal`, the server also serves a portal built for it (a preview that
 * opens the landing). `beforeServer` runs before the server's first start,
 * on its data folder (an operator's command), and answers what the server's
 * environment adds.
 */
export function adminStudio(
  name: string,
  portOffset: number,
  { portal = false, beforeServer }: { portal?: boolean; beforeServer?: (studio: { work: string; serverUrl: string }) => Record<string, string> } = {},
) {
  const basePort = Number(process.env.E2E_PORT ?? 3100);
  const serverUrl = `http://127.0.0.1:${basePort + portOffset}`;
  const deskUrl = `http://127.0.0.1:${basePort + portOffset + 1}`;
  const work = path.join(repoRoot, '.tmp', `${name}-e2e-${basePort}`);
  let portalDist = path.join(work, 'portal');
  let server: ChildProcess | null = null;
  let desk: ChildProcess | null = null;

  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async () => {
    test.setTimeout(600_000);
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const built = portal ? portalBuiltFromTree() : null;
    if (built) portalDist = built;
    const build = portal && !built ? run([npm, 'run', 'build', '-w', '@estudio/portal', '--', '--outDir', portalDist, '--emptyOutDir', '--logLevel', 'warn'], {}, 'portal') : null;
    const env = beforeServer?.({ work, serverUrl }) ?? {};
    desk = deskWebProcess({ port: basePort + portOffset + 1, work, serverUrl });
    if (build) await finished(build, 'la construcción del portal');
    server = serverProcess({ port: basePort + portOffset, work, ...(portal ? { portalDist } : {}), env: { START_DESK: '0', ...env } });
    await waitFor(`${serverUrl}/api/health`, 180_000);
    await waitFor(`${deskUrl}/health`, 240_000);
  });
  test.afterAll(async () => {
    await stop(desk);
    await stop(server);
  });

  /** The desk's admin console, signed in as admin@ when the desk asks (a page of the same run keeps the session). */
  async function adminDesk(page: Page): Promise<void> {
    await page.goto(deskLink(deskUrl));
    const email = page.getByLabel('Correo electrónico');
    await expect(page.getByTestId('admin-nav').or(email)).toBeVisible({ timeout: 60_000 });
    if (await email.isVisible()) {
      await email.fill('admin@estudio.demo');
      await page.getByLabel('Contraseña').fill(demoPassword);
      await page.getByRole('button', { name: 'Entrar' }).click();
    }
    await expect(page.getByTestId('admin-nav')).toBeVisible({ timeout: 60_000 });
  }

  return { serverUrl, deskUrl, work, adminDesk };
}

/** Opens a section of the console's navigation by its name. */
export async function openSection(page: Page, name: string): Promise<void> {
  await page.getByTestId('admin-nav').getByRole('button', { name, exact: true }).click();
}

const spanishMonths = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'];

/**
 * Picks a day on one of the console's calendars (a date or a date-time
 * field): opens it, moves month by month to the day's month and clicks the
 * day, whose button is named as Mantine names it in Spanish ('1 diciembre 2026').
 */
export async function pickDay(page: Page, field: Locator, day: string): Promise<void> {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  await field.click();
  const dropdown = page.locator('.mantine-Popover-dropdown').last();
  await expect(dropdown).toBeVisible();
  const target = dropdown.locator(`button[aria-label="${date} ${spanishMonths[month - 1]} ${year}"]:not([data-outside])`);
  for (let step = 0; step < 48 && !(await target.isVisible()); step++) {
    const shown = (await dropdown.locator('[class*="calendarHeaderLevel"]').first().innerText()).trim().toLowerCase();
    const [name = '', shownYear = '0'] = shown.split(/\s+/);
    const ahead = year * 12 + month - (Number(shownYear) * 12 + spanishMonths.indexOf(name) + 1);
    await dropdown.locator(`button[data-direction="${ahead > 0 ? 'next' : 'previous'}"]`).first().click();
  }
  await target.click();
}

/** Picks a day and types an hour ('09:30') in one of the console's date-time fields, then closes it with Listo. */
export async function pickDateTime(page: Page, field: Locator, day: string, time: string): Promise<void> {
  await pickDay(page, field, day);
  const dropdown = page.locator('.mantine-Popover-dropdown').last();
  const [hours = '', minutes = ''] = time.split(':');
  // Picking the day puts the cursor in the hours, which move on to the minutes once complete: the owner types 0930.
  await expect(dropdown.getByLabel('Horas')).toBeFocused();
  await page.keyboard.type(`${hours}${minutes}`);
  await expect(dropdown.getByLabel('Horas')).toHaveValue(hours);
  await expect(dropdown.getByLabel('Minutos')).toHaveValue(minutes);
  await dropdown.getByRole('button', { name: 'Listo' }).click();
  await expect(dropdown).toBeHidden();
}

/**
 * Picks an hour ('21:00') in one of the console's hour fields (decision 046: Mantine's TimePicker, 24 h, minutes in
 * steps of 5): the owner clicks the hours, whose list opens, and types 2100; the focus moves on to the minutes.
 */
export async function pickTime(page: Page, field: Locator, time: string): Promise<void> {
  const [hours = '', minutes = ''] = time.split(':');
  await field.getByLabel('Horas', { exact: true }).click();
  await page.keyboard.type(`${hours}${minutes}`);
  await expect(field.getByLabel('Horas', { exact: true })).toHaveValue(hours);
  await expect(field.getByLabel('Minutos', { exact: true })).toHaveValue(minutes);
}
