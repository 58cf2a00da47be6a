import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures.ts';
import { apiLogin, deskLink, deskSignIn, deskWebProcess, repoRoot, serverProcess, stop, waitFor } from './desk-processes.ts';

/**
 * Point 11 at the front desk (decision 030): the customer card's
 * purchases show a subscription's next charge, the date Mis Compras shows.
 * Photographed at 1366x900 and 390x844 when SHOTS_DIR is set.
 */
const basePort = Number(process.env.E2E_PORT ?? 3100);
const serverPort = basePort + 56;
const deskPort = basePort + 57;
const serverUrl = `http://127.0.0.1:${serverPort}`;
const deskUrl = `http://127.0.0.1:${deskPort}`;
const work = path.join(repoRoot, '.tmp', `desk-studio-time-e2e-${basePort}`);

let server: ChildProcess | null = null;
let desk: ChildProcess | null = null;

test.setTimeout(240_000);

test.beforeAll(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  server = serverProcess({ port: serverPort, work });
  await waitFor(`${serverUrl}/api/health`, 120_000);
  desk = deskWebProcess({ port: deskPort, work, serverUrl });
  await waitFor(`${deskUrl}/health`, 180_000);
});

test.afterAll(async () => {
  await stop(desk);
  await stop(server);
});

const months = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sep', 'oct', 'nov', 'dic'];
/** 'D MMM YYYY' in Spanish in Mexico City, the desk's dates. */
function deskDate(instant: string): string {
  const [d, m, y] = new Intl.DateTimeFormat('en-GB', { timeZone: 'America/Mexico_City', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(instant)).split('/').map(Number) as [number, number, number];
  return `${d} ${months[m - 1]} ${y}`;
}

test("the customer card shows the membership's next charge, as Mis Compras does", async ({ page, request }) => {
  const token = await apiLogin(request, serverUrl, 'ilimitado@estudio.demo');
  const { purchases } = (await (await request.get(`${serverUrl}/api/purchases`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
    purchases: { purchase_id: number; title: string; next_charge_date: string | null }[];
  };
  const online = purchases.find((p) => p.title === 'Online Mensual')!;
  expect(online.next_charge_date).not.toBeNull();

  await page.goto(deskLink(deskUrl));
  await deskSignIn(page, 'recepcion@estudio.demo');
  await expect(page.getByTestId('sync-indicator')).toHaveAttribute('data-online', 'true', { timeout: 60_000 });
  await expect(page.getByText('Descargando los datos del estudio…')).toHaveCount(0, { timeout: 60_000 });
  await page.getByRole('tab', { name: 'Clientes' }).click();
  await page.getByTestId('customer-search').fill('ilimitado@');
  await page.getByTestId('customer-hit').filter({ hasText: 'ilimitado@estudio.demo' }).click();
  const card = page.getByTestId('customer-card');
  await card.getByRole('tab', { name: 'Compras' }).click();
  const row = card.locator(`tr[data-purchase-id="${online.purchase_id}"]`);
  await expect(row.getByTestId('next-charge')).toHaveText(`Sig. Cargo ${deskDate(online.next_charge_date!)}`);

  const shots = process.env.SHOTS_DIR;
  if (shots) {
    for (const [width, height] of [
      [1366, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await row.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}/desk-card-next-charge-${width}x${height}.png` });
    }
  }
});
