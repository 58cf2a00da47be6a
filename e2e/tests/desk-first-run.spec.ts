import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from './fixtures.ts';
import { deskLink, repoRoot, stop, waitFor, deskWebProcess, serverProcess, deskSignIn } from './desk-processes.ts';

/**
 * The desk's first run (decision 019): without DESK_SERVER_URL it asks for
 * the studio's address, checks it, and the sign-in screen says where it
 * connects; an admin can change it later. SHOTS_DIR keeps screenshots.
 */
const basePort = Number(process.env.E2E_PORT ?? 3100);
const serverPort = basePort + 60;
const deskPort = basePort + 61;
const serverUrl = `http://127.0.0.1:${serverPort}`;
const deskUrl = `http://127.0.0.1:${deskPort}`;
const work = path.join(repoRoot, '.tmp', `desk-first-run-${basePort}`);
const shots = process.env.SHOTS_DIR;

let server: ChildProcess | null = null;
let desk: ChildProcess | null = null;

const sizes = [
  { width: 1366, height: 900 },
  { width: 1024, height: 768 },
  { width: 390, height: 844 },
];

async function shootAll(page: Page, name: string) {
  if (!shots) return;
  for (const size of sizes) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(shots, `${name}-${size.width}x${size.height}.png`), fullPage: true });
  }
  await page.setViewportSize(sizes[0] ?? { width: 1366, height: 900 });
}

test.beforeAll(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(path.join(work, 'no-portal'), { recursive: true });
  server = serverProcess({ port: serverPort, work });
  // No address given: the desk must ask for it.
  desk = deskWebProcess({ port: deskPort, work, serverUrl: '' });
  await waitFor(`${serverUrl}/api/health`, 120_000);
  await waitFor(`${deskUrl}/health`, 180_000);
});

test.afterAll(async () => {
  await stop(desk);
  await stop(server);
});

test('first run asks for the studio address, refuses a wrong one in Spanish, and the sign-in screen says where it connects', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto(deskLink(deskUrl));
  const form = page.getByTestId('first-run');
  await expect(form.getByRole('heading', { name: 'Conecta esta recepción con tu estudio' })).toBeVisible();
  await shootAll(page, 'primer-inicio');

  const address = form.getByLabel('Dirección del servidor');
  await address.fill('http://127.0.0.1:9');
  await form.getByRole('button', { name: 'Conectar' }).click();
  await expect(form.getByRole('alert')).toHaveText('No hubo respuesta en esa dirección. Revisa que esté bien escrita y que este equipo tenga internet.');
  await shootAll(page, 'primer-inicio-error');

  await address.fill(`${serverUrl}/`);
  await form.getByRole('button', { name: 'Conectar' }).click();
  await expect(page.getByRole('heading', { name: 'Recepción del estudio' })).toBeVisible();
  await expect(page.getByTestId('connecting-to')).toHaveText(`Conectando a 127.0.0.1:${serverPort}`);
  await shootAll(page, 'entrar');

  // An admin sees 'Cambiar servidor', with what it means before anything is wiped.
  await deskSignIn(page, 'admin@estudio.demo');
  const change = page.getByRole('button', { name: /Cambiar servidor/ });
  await expect(change).toContainText(`127.0.0.1:${serverPort}`);
  if (shots) await page.screenshot({ path: path.join(shots, 'admin-1366x900.png') });
  await change.click();
  const dialog = page.getByRole('dialog', { name: 'Cambiar el servidor de esta recepción' });
  await expect(dialog).toContainText('Otro servidor es otro estudio');
  await dialog.getByLabel('Dirección del servidor').fill('reservas.otro-estudio.invalid');
  await dialog.getByRole('button', { name: 'Borrar datos y cambiar' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('No hubo respuesta en esa dirección. Revisa que esté bien escrita y que este equipo tenga internet.');
  if (shots) await page.screenshot({ path: path.join(shots, 'cambiar-servidor-1366x900.png') });
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(page.getByTestId('connecting-to')).toHaveCount(0);
});
