import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from './fixtures.ts';
import { demoPassword } from './helpers.ts';
import { deskLink, deskWebProcess, repoRoot, serverProcess, stop, waitFor } from './desk-processes.ts';
import { shoot } from './shots.ts';

/**
 * Issue 18, point 8: the studio's bank account for transfers, kept in the desk's Paquetes screen and shown on
 * every pending 'Efectivo' order. Its own server and desk:web (no portal needed: the answer is read from the API).
 */
const basePort = Number(process.env.E2E_PORT ?? 3100);
const serverUrl = `http://127.0.0.1:${basePort + 70}`;
const deskUrl = `http://127.0.0.1:${basePort + 71}`;
const work = path.join(repoRoot, '.tmp', `desk-bank-e2e-${basePort}`);

test.describe.configure({ mode: 'serial' });
let server: ChildProcess | null = null;
let desk: ChildProcess | null = null;

test.beforeAll(async () => {
  test.setTimeout(600_000);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  desk = deskWebProcess({ port: basePort + 71, work, serverUrl });
  server = serverProcess({ port: basePort + 70, work, env: { START_DESK: '0' } });
  await waitFor(`${serverUrl}/api/health`, 180_000);
  await waitFor(`${deskUrl}/health`, 240_000);
});

test.afterAll(async () => {
  await stop(desk);
  await stop(server);
});

async function adminDesk(page: Page) {
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

test('the admin keeps the bank, CLABE and beneficiary; a CLABE with a wrong check digit is refused under the field', async ({ page, request }) => {
  await adminDesk(page);
  await page.getByTestId('admin-nav').getByRole('button', { name: 'Paquetes', exact: true }).click();
  const panel = page.getByTestId('bank-transfer-settings');
  await expect(panel.getByLabel('Banco para transferencias')).toHaveValue('BBVA México');
  await expect(panel.getByLabel('CLABE interbancaria')).toHaveValue('012180001234567899');
  await expect(panel.getByLabel('Beneficiario de la cuenta')).toHaveValue('Estudio Demo S.A. de C.V.');

  // A digit mistyped: the check digit no longer matches (core's isValidClabe), nothing is sent.
  await panel.getByLabel('CLABE interbancaria').fill('012 180 00123456789 0');
  await expect(panel.getByLabel('CLABE interbancaria')).toHaveValue('012180001234567890');
  await panel.getByRole('button', { name: 'Guardar' }).click();
  await expect(panel.getByText('La CLABE debe tener 18 dígitos y el último es su dígito verificador: revísala en tu estado de cuenta.')).toBeVisible();
  await shoot(page, 'desk-bank-transfer-error', panel);

  await panel.getByLabel('CLABE interbancaria').fill('002010077777777771');
  await panel.getByLabel('Beneficiario de la cuenta').fill('Movimiento Roma S.C.');
  await panel.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Datos de transferencia guardados.')).toBeVisible();
  const config = (await (await request.get(`${serverUrl}/api/appconfig`)).json()) as { config: { key: string; value: string }[] };
  const value = (key: string) => config.config.find((e) => e.key === key)?.value;
  expect([value('bank_name'), value('bank_clabe'), value('bank_beneficiary')]).toEqual(['BBVA México', '002010077777777771', 'Movimiento Roma S.C.']);
});
