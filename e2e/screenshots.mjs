#!/usr/bin/env node
// Screenshots of the portal shell and the booking screens for a visual check (not part of the test suite):
//   node e2e/screenshots.mjs [baseURL]   → .tmp/screenshots/*.png
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';

const base = process.argv[2] ?? 'http://127.0.0.1:3000';
const out = path.resolve(import.meta.dirname, '..', '.tmp', 'screenshots');
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});

async function signIn(page, email) {
  await page.goto(`${base}/entrar`);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill('Demo1234!');
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await page.waitForURL(/\/mystudio$/);
  await page.waitForTimeout(800);
}

for (const [suffix, viewport] of [['desktop', { width: 1366, height: 860 }], ['mobile', { width: 390, height: 844 }]]) {
  const context = await browser.newContext({ viewport, locale: 'es-MX' });
  const page = await context.newPage();
  await page.goto(`${base}/entrar`);
  await page.getByRole('heading', { name: 'Entrar Ahora' }).waitFor();
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${out}/entrar-${suffix}.png` });
  await page.goto(`${base}/registro`);
  await page.getByRole('heading', { name: '¡Regístrate!' }).waitFor();
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${out}/registro-${suffix}.png`, fullPage: true });
  await signIn(page, 'cliente@estudio.demo');
  await page.screenshot({ path: `${out}/mystudio-${suffix}.png`, fullPage: true });
  if (suffix === 'mobile') {
    await page.getByRole('button', { name: 'Abrir menú' }).click();
  } else {
    await page.getByRole('button', { name: /Mariana/ }).click();
  }
  await page.waitForTimeout(600);
  await page.screenshot({ path: `${out}/mystudio-${suffix === 'mobile' ? 'drawer' : 'menu'}-${suffix}.png` });
  await page.keyboard.press('Escape');
  await bookingScreens(page, suffix);
  await context.close();
}

/** The booking screens, without saving anything: the calendar, the booking modal with the seat map, Mis Reservaciones and its modals, credits. */
async function bookingScreens(page, suffix) {
  const shot = async (name, fullPage = false) => {
    await page.waitForTimeout(700);
    await page.screenshot({ path: `${out}/${name}-${suffix}.png`, fullPage });
  };
  const close = async () => {
    await page.keyboard.press('Escape');
    await page.waitForTimeout(400);
  };
  await page.goto(`${base}/mystudio`);
  await page.getByRole('button', { name: 'Semana siguiente' }).click();
  await shot('calendario', true);
  await page.locator('[data-class-id][data-state="available"]', { hasText: 'Indoor Cycling' }).first().click();
  await page.getByRole('button', { name: 'Lugar 7', exact: true }).click().catch(() => undefined);
  await page.getByRole('checkbox', { name: 'Llevar un invitado' }).check();
  await shot('reservar');
  await close();
  await page.locator('[data-class-id][data-state="full"]').first().click();
  await shot('lista-de-espera');
  await close();
  await page.goto(`${base}/mystudio`);
  await page.locator('[data-class-id][data-state="reserved"]').first().click();
  await shot('tu-reservacion');
  await close();
  await page.goto(`${base}/mystudio/reservaciones`);
  await shot('reservaciones', true);
  await page.getByRole('button', { name: 'Código de Acceso' }).first().click();
  await shot('codigo-de-acceso');
  await close();
  await page.getByRole('button', { name: 'Cancelar', exact: true }).first().click();
  await shot('cancelar-clase');
  await close();
  const rate = page.getByRole('button', { name: 'Calificar Clase' });
  if (await rate.count()) {
    await rate.first().click();
    await page.getByRole('group', { name: 'Coach' }).locator('label').nth(4).click();
    await shot('calificar-clase');
    await close();
  }
  await page.goto(`${base}/mystudio/creditos`);
  await shot('creditos', true);
  await page.goto(`${base}/mystudio/waitlists`);
  await shot('listas-de-espera', true);
}
await browser.close();
console.log(`Capturas en ${out}`);
