#!/usr/bin/env node
// Screenshots of the public site and Mi Información for a visual check (not part of the test suite):
//   node e2e/screenshots-content.mjs [baseURL]   → .tmp/screenshots/{landing,instructor,informacion}-{desktop,mobile}.png
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

/** Full-page shot, plus 1600px-tall slices on phones so each part can be read at full size. */
async function shoot(page, name, suffix) {
  await page.screenshot({ path: `${out}/${name}-${suffix}.png`, fullPage: true });
  if (suffix !== 'mobile') return;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0, part = 1; y < height; y += 1600, part += 1) {
    await page.screenshot({ path: `${out}/${name}-${suffix}-${part}.png`, fullPage: true, clip: { x: 0, y, width: 390, height: Math.min(1600, height - y) } });
  }
}

for (const [suffix, viewport] of [['desktop', { width: 1366, height: 860 }], ['mobile', { width: 390, height: 844 }]]) {
  const context = await browser.newContext({ viewport, locale: 'es-MX', timezoneId: 'America/Mexico_City' });
  const page = await context.newPage();

  await page.goto(`${base}/`);
  await page.locator('[data-section="coaches"] a').first().waitFor();
  await page.waitForTimeout(1200);
  await shoot(page, 'landing', suffix);

  const coach = await page.locator('[data-section="coaches"] a').first().getAttribute('href');
  await page.goto(`${base}${coach.replace('/coach/', '/instructor/')}`);
  await page.getByRole('heading', { name: /^Entrena con / }).waitFor();
  await page.waitForTimeout(1200);
  await shoot(page, 'instructor', suffix);

  await page.goto(`${base}/entrar`);
  await page.getByLabel('Correo electrónico').fill('cliente@estudio.demo');
  await page.getByLabel('Contraseña', { exact: true }).fill('Demo1234!');
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await page.waitForURL(/\/mystudio$/);
  await page.goto(`${base}/mystudio/informacion`);
  await page.getByRole('heading', { name: 'Mi Información' }).waitFor();
  await page.waitForTimeout(1000);
  await shoot(page, 'informacion', suffix);
  await page.getByRole('button', { name: 'Editar' }).first().click();
  await page.waitForTimeout(500);
  await shoot(page, 'informacion-editar', suffix);
  await context.close();
}
await browser.close();
console.log(`screenshots in ${out}`);
