#!/usr/bin/env node
// Screenshots of the portal shell for a visual check (not part of the test suite):
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
  await context.close();
}
await browser.close();
console.log(`Capturas en ${out}`);
