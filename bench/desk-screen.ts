// The desk as a receptionist sees it: a desk service served with its screens
// to Debian's Chromium, either the one the rest of bench/desk.ts measures (in
// its own process) or the packaged desk alone in its own (desk-memory.ts).
// Times are taken inside the page (performance.now / Date.now on this
// machine), from the moment the scan reaches the page or the server commits,
// until the answer is on screen and painted.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright';
import type { DeskService } from '../desktop/src/service/desk-service.ts';
import { startDeskWeb } from '../desktop/src/web/server.ts';
import { chromiumLaunchOptions } from '../e2e/chromium.ts';

// The page's side, as source text: tsx would wrap a function passed to
// page.evaluate in its own helpers (__name), which the page does not have.

/**
 * Types the code and Enter as a keyboard wedge does; ms until the verdict shows the name, painted,
 * and on the way: until the page took the scan, the scan's answer had arrived, and the name was in the page.
 * Counted from `askedAt` (the bench's clock, ms since the epoch): a page still busy with the last scan's
 * work makes the next scan wait, as it would make a scanner's keystrokes wait, and that wait is counted.
 */
const scanInPage = `async ({ code, name, askedAt }) => {
  const input = document.querySelector('[data-testid="scanner-input"]');
  if (!input || !input.form) throw new Error('no está el campo del escáner');
  const taken = performance.now();
  const started = taken - Math.max(0, performance.timeOrigin + taken - askedAt);
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, code);
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.form.requestSubmit();
  let shownAt = 0;
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no apareció ' + name)), 10000);
    const observer = new MutationObserver(() => {
      const shown = document.querySelector('[data-testid="scan-name"]');
      if (!shown || shown.textContent.replace(/\\s+/g, ' ').trim() !== name) return;
      shownAt = performance.now();
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  // On screen means painted: the frame after the DOM has it.
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const painted = performance.now() - started;
  const request = performance.getEntriesByType('resource').filter((e) => e.name.includes('checkIn.scan') && e.startTime >= started).at(-1);
  performance.clearResourceTimings();
  return { painted, taken: taken - started, sent: request ? request.startTime - started : NaN, answered: request ? request.responseEnd - started : NaN, shown: shownAt - started };
}`;

/** Resolves with Date.now() once the text is on the page, painted. */
const paintedInPage = `async (text) => {
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no apareció ' + text)), 15000);
    const observer = new MutationObserver(() => {
      if (!document.body.textContent.includes(text)) return;
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return Date.now();
}`;

/**
 * Run before the page's own scripts: records in window.benchOpened the ms from the navigation's start until a
 * location's rosters are on screen, painted (shown), and until every location's panel is drawn (all).
 */
const openedInPage = `(() => {
  const opened = { shown: 0, all: 0 };
  window.benchOpened = opened;
  const paintedAs = (key) => requestAnimationFrame(() => requestAnimationFrame(() => { opened[key] = performance.now(); }));
  let shownSeen = false;
  const observer = new MutationObserver(() => {
    const panels = document.querySelectorAll('[role="tabpanel"][data-location-id]');
    if (!shownSeen && [...panels].some((panel) => panel.querySelector('[data-class-id]'))) {
      shownSeen = true;
      paintedAs('shown');
    }
    const tabs = document.querySelectorAll('[id^="desk-locations-tab-"]').length;
    if (shownSeen && tabs > 0 && panels.length === tabs) {
      observer.disconnect();
      paintedAs('all');
    }
  });
  addEventListener('DOMContentLoaded', () => observer.observe(document.body, { subtree: true, childList: true }));
})()`;

/** Resolves with window.benchOpened once every location's panel is drawn. */
const openedWhenAllDrawn = `new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('no se dibujaron todas las sedes')), 60000);
  const check = () => (window.benchOpened.all > 0 ? (clearTimeout(timer), resolve({ ...window.benchOpened })) : setTimeout(check, 50));
  check();
})`;

/**
 * Clicks the Hoy tab (Clientes on screen); ms until the rosters of the location on screen are shown, painted.
 */
const backToTodayInPage = `async () => {
  const tab = [...document.querySelectorAll('[role="tab"]')].find((el) => el.textContent.trim() === 'Hoy');
  if (!tab) throw new Error('no está la pestaña Hoy');
  const rosterShown = () => [...document.querySelectorAll('[role="tabpanel"][data-location-id] [data-class-id]')].some((el) => el.checkVisibility());
  if (rosterShown()) throw new Error('Hoy ya estaba en pantalla');
  const started = performance.now();
  tab.click();
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Hoy no volvió')), 15000);
    const check = () => (rosterShown() ? (clearTimeout(timer), resolve()) : requestAnimationFrame(check));
    check();
  });
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return performance.now() - started;
}`;

export interface DeskScreenScan {
  /** What the scanner types (the access code of the portal's QR). */
  code: string;
  /** The full name the outcome panel must show for it. */
  name: string;
}

export interface DeskScreenFigures {
  /** Scan typed into the page → the outcome panel with the customer's name painted. */
  scanToScreen: number[];
  /** The same scans, in phases from the moment typed: the page took it, the request left, its answer arrived, the name in the page. */
  scanPhases: { taken: number; sent: number; answered: number; shown: number }[];
  /** A write committed on the server → the new text painted on the Today screen. */
  writeToScreen: number[];
  /** Clientes on screen, a click on Hoy → its rosters painted again. */
  backToToday: number[];
  /** The page opened (from the navigation's start): a location's rosters painted, and every location's panel drawn. */
  opened: { shown: number; all: number }[];
}

/** The desk's screens built for production, as the packaged desk serves them; the caller removes the folder. */
export async function buildDeskScreens(): Promise<string> {
  const distDir = mkdtempSync(path.join(tmpdir(), 'bench-desk-web-'));
  const { build } = await import('vite');
  const { rendererConfig } = await import('../desktop/renderer.config.ts');
  await build({ ...rendererConfig(distDir), logLevel: 'warn', configFile: false });
  return distDir;
}

/** What is scanned and written on screen, whichever desk serves it. */
interface ScreenWork {
  scans: DeskScreenScan[];
  writes: number;
  write: (marker: string) => Promise<void>;
}

/** The signed-in `desk` of this process served with the screens in `distDir`, and measured as measureDeskScreen does. */
export async function measureDeskScreenHere(options: ScreenWork & { desk: DeskService; distDir: string }): Promise<DeskScreenFigures> {
  const key = `bench-${process.pid}`;
  const web = await startDeskWeb({ port: 0, distDir: options.distDir, desk: options.desk, key });
  try {
    return await measureDeskScreen({ ...options, url: `http://127.0.0.1:${web.port}`, key });
  } finally {
    await web.close({ keepDesk: true });
  }
}

/**
 * Opens a signed-in desk's page (its address and key) in Chromium and measures scans and server writes on screen.
 * `write(marker)` must commit a change on the server that makes `marker` appear on the Today screen (e.g. a
 * guest's name on a roster row).
 */
export async function measureDeskScreen(options: ScreenWork & { url: string; key: string }): Promise<DeskScreenFigures> {
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    await page.addInitScript(openedInPage);
    await page.goto(`${options.url}/?llave=${options.key}`);
    await page.getByTestId('scanner-input').waitFor({ timeout: 60_000 });
    // As at a counter, the first customer comes once the desk is open: today's classes drawn, and a moment after.
    await page.locator('[data-class-id]').first().waitFor({ timeout: 60_000 });
    // Polled from the page: the desk's CSP forbids the string functions of waitForFunction.
    const opened = [(await page.evaluate(openedWhenAllDrawn)) as DeskScreenFigures['opened'][number]];
    await page.waitForTimeout(Number(process.env.BENCH_SCREEN_SETTLE_MS ?? 3000));

    // BENCH_SCREEN_PROFILE=file.cpuprofile keeps the page's CPU profile of the scans (Chrome DevTools opens it).
    const profileTo = process.env.BENCH_SCREEN_PROFILE;
    const cdp = profileTo ? await page.context().newCDPSession(page) : null;
    // BENCH_SCREEN_TRACE=file.json keeps Chromium's timeline of the scans (style, layout, paint, scripts).
    const traceTo = process.env.BENCH_SCREEN_TRACE;
    if (traceTo) await browser.startTracing(page, { path: traceTo, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
      await cdp.send('Profiler.start');
    }
    const scanToScreen: number[] = [];
    const scanPhases: DeskScreenFigures['scanPhases'] = [];
    for (const scan of options.scans) {
      try {
        const asked = { ...scan, askedAt: performance.timeOrigin + performance.now() };
        const { painted, ...phases } = (await page.evaluate(`(${scanInPage})(${JSON.stringify(asked)})`)) as { painted: number } & DeskScreenFigures['scanPhases'][number];
        scanToScreen.push(painted);
        scanPhases.push(phases);
      } catch (error) {
        const shot = path.join(tmpdir(), 'bench-desk-scan-failed.png');
        await page.screenshot({ path: shot });
        throw new Error(`${error instanceof Error ? error.message : String(error)} (pantalla: ${shot})`);
      }
    }

    if (traceTo) await browser.stopTracing();
    if (cdp && profileTo) {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(profileTo, JSON.stringify(profile));
    }

    const writeToScreen: number[] = [];
    for (let i = 0; i < options.writes; i++) {
      const marker = `Marca${i}x${Date.now().toString(36)}`;
      const seen = page.evaluate(`(${paintedInPage})(${JSON.stringify(marker)})`) as Promise<number>;
      // The observer is in place once evaluate has reached the page; a short pause covers the round trip.
      await new Promise((r) => setTimeout(r, 50));
      const started = Date.now();
      await options.write(marker);
      writeToScreen.push((await seen) - started);
    }
    // Staff open Clientes (to sell, to find someone) and come back to Hoy: five times, a pause between.
    const backToToday: number[] = [];
    for (let i = 0; i < 5; i++) {
      await page.getByRole('tab', { name: 'Clientes' }).click();
      await page.getByTestId('customer-search').waitFor();
      await page.waitForTimeout(500);
      backToToday.push((await page.evaluate(`(${backToTodayInPage})()`)) as number);
      await page.waitForTimeout(500);
    }
    return { scanToScreen, scanPhases, writeToScreen, backToToday, opened };
  } finally {
    await browser.close();
  }
}
