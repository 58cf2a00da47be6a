// The portal's performance budget in headless Chromium (Debian's /usr/bin/chromium;
// nothing downloads a browser):
//   - initial JavaScript: every script the browser fetches to show the page until
//     the network is idle, each body gzipped with zlib at level 6 (the level of
//     @fastify/compress and of common nginx setups), its raw size, and the bytes
//     the server really sent (the build's precompressed .br when the browser takes
//     brotli), for the landing `/` and for `/mystudio` signed in as
//     cliente@estudio.demo; beside it the chunks the Vite manifest predicts (the
//     entry, the route's lazy chunk and their static imports), so the figure is
//     explained chunk by chunk;
//   - Lighthouse 12 performance and accessibility scores with LCP, TBT and CLS of
//     the landing, the account's weekly calendar (/mystudio) and a package's
//     checkout (/checkout/:id, signed in), with Lighthouse's default mobile
//     emulation and simulated throttling (Moto G Power, slow 4G, 4x CPU), then
//     with its desktop preset;
//   - axe-core violations on the same pages (rule, impact, one node selector).
//
//   npx tsx bench/portal-budget.ts
//
// Builds the portal with its manifest into .tmp/portal-budget-dist (or reuses the
// build in PORTAL_BUDGET_DIST), starts the server on its embedded defaults
// (PGlite, the demo seed) in a throw-away .tmp/portal-budget-data on port 3331,
// and stops it at the end. Knobs: BENCH_PORT (3331), PORTAL_BUDGET_DIST (a built
// portal to reuse), BENCH_LH_DESKTOP=0 (skip the desktop preset), BENCH_LH=0
// (skip Lighthouse). Exits non-zero only when a figure could not be measured.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';
import { AxeBuilder } from '@axe-core/playwright';
import lighthouse, { desktopConfig, type Config, type Flags } from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import puppeteer, { type Page as PuppeteerPage } from 'puppeteer-core';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.BENCH_PORT ?? 3331);
const base = `http://127.0.0.1:${port}`;
const dataDir = path.join(root, '.tmp', 'portal-budget-data');
const reusedDist = process.env.PORTAL_BUDGET_DIST ? path.resolve(process.env.PORTAL_BUDGET_DIST) : null;
const dist = reusedDist ?? path.join(root, '.tmp', 'portal-budget-dist');
const withLighthouse = process.env.BENCH_LH !== '0';
const withDesktop = process.env.BENCH_LH_DESKTOP !== '0';
const chromePath = '/usr/bin/chromium';
const chromeArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const customer = { email: 'cliente@estudio.demo', password: 'Demo1234!' };
const GZIP_LEVEL = 6;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

function buildPortal(): void {
  if (reusedDist) {
    if (!existsSync(path.join(dist, 'index.html'))) throw new Error(`PORTAL_BUDGET_DIST=${dist} has no index.html`);
    return;
  }
  console.log('Construyendo el portal (con su manifest)…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@estudio/portal', '--', '--outDir', dist, '--emptyOutDir', '--manifest'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0) throw new Error(`portal build failed (${build.status})`);
}

async function startServer(): Promise<ChildProcess> {
  rmSync(dataDir, { recursive: true, force: true });
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      PORTAL_DIST: dist,
      START_DESK: '0',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      AUTH_RATE_LIMIT_MAX: '1000',
    },
  });
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const up = await fetch(`${base}/api/health`).then((r) => r.ok, () => false);
    if (up) return child;
    if (Date.now() - started > 180_000) throw new Error('the server did not answer within 180 s');
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** The checkout the budget measures: the demo shop's '5 Clases'. */
async function checkoutPath(): Promise<string> {
  const answer = (await (await fetch(`${base}/api/class_packages`)).json()) as { class_packages: { class_package_id: number; title: string }[] };
  const pkg = answer.class_packages.find((p) => p.title === '5 Clases') ?? answer.class_packages[0];
  if (!pkg) throw new Error('the demo shop has no package');
  return `/checkout/${pkg.class_package_id}`;
}

interface PageSpec {
  name: string;
  path: string;
  signedIn: boolean;
  /** Resolves once the page shows its content (not the loader). */
  ready: (page: Page) => Promise<unknown>;
}

async function signInPlaywright(page: Page): Promise<void> {
  await page.goto(`${base}/entrar`);
  await page.getByLabel('Correo electrónico').fill(customer.email);
  await page.getByLabel('Contraseña', { exact: true }).fill(customer.password);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await page.waitForURL(/\/mystudio$/);
}

// ---------- initial JavaScript ----------

interface Script {
  file: string;
  raw: number;
  gzip: number;
  /** The body as the server sent it (compressed when it served a .br/.gz). */
  sent: number;
}

/** Every script response of one page load until the network is idle, from an empty HTTP cache. */
async function initialScripts(context: BrowserContext, spec: PageSpec): Promise<Script[]> {
  const page = await context.newPage();
  // Signing in filled the cache; the budget is for a first visit's downloads.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
  const bodies: Promise<Script | null>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    bodies.push(
      Promise.all([response.body(), response.request().sizes()]).then(
        ([body, sizes]) => ({
          file: new URL(response.url()).pathname,
          raw: body.length,
          gzip: gzipSync(body, { level: GZIP_LEVEL }).length,
          sent: sizes.responseBodySize,
        }),
        () => null,
      ),
    );
  });
  await page.goto(base + spec.path);
  await spec.ready(page);
  await page.waitForLoadState('networkidle');
  const scripts = (await Promise.all(bodies)).filter((s): s is Script => s !== null);
  await page.close();
  return scripts.sort((a, b) => b.gzip - a.gzip);
}

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

/** The JS files the manifest says a route needs at once: its chunks and their static imports, transitively. */
function predictedFiles(manifest: Record<string, ManifestChunk>, keys: string[]): Set<string> {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(`/${chunk.file}`)) return;
    files.add(`/${chunk.file}`);
    chunk.imports?.forEach(visit);
  };
  keys.forEach(visit);
  return files;
}

/**
 * `predicted`: the manifest's files for the route (entry + route chunks + static imports);
 * `entry`: those of index.html alone (its modulepreload list), to split the figure in two.
 */
function printScripts(title: string, scripts: Script[], predicted: Set<string> | null, entry: Set<string> | null): void {
  const raw = scripts.reduce((sum, s) => sum + s.raw, 0);
  const gzip = scripts.reduce((sum, s) => sum + s.gzip, 0);
  const sent = scripts.reduce((sum, s) => sum + s.sent, 0);
  console.log(
    `\n${title}: ${kb(gzip)} gzip (nivel ${GZIP_LEVEL}), ${kb(raw)} sin comprimir, ${kb(sent)} enviados por el servidor, ${scripts.length} archivos`,
  );
  console.log(`    ${'archivo'.padEnd(58)} ${'gzip'.padStart(10)} ${'sin comp.'.padStart(11)} ${'enviado'.padStart(11)}`);
  for (const s of scripts) {
    const mark = predicted ? (predicted.has(s.file) ? ' ' : '+') : ' ';
    console.log(`  ${mark} ${s.file.padEnd(58)} ${kb(s.gzip).padStart(10)} ${kb(s.raw).padStart(11)} ${kb(s.sent).padStart(11)}`);
  }
  if (predicted) {
    const loaded = new Set(scripts.map((s) => s.file));
    const missing = [...predicted].filter((f) => !loaded.has(f));
    const extra = scripts.filter((s) => !predicted.has(s.file));
    console.log(
      `  manifest (entrada + chunk de la ruta + imports estáticos): ${predicted.size} archivos; ` +
        (extra.length ? `+ = ${extra.length} cargados aparte (${kb(extra.reduce((x, s) => x + s.gzip, 0))} gzip, imports dinámicos)` : 'ninguno cargado aparte') +
        (missing.length ? `; previstos y no cargados: ${missing.join(', ')}` : ''),
    );
  }
  if (entry) {
    const shell = scripts.filter((s) => entry.has(s.file));
    const route = scripts.filter((s) => !entry.has(s.file));
    const sum = (xs: Script[]) => kb(xs.reduce((x, s) => x + s.gzip, 0));
    console.log(`  de ello: entrada index.html y sus imports ${sum(shell)} gzip (${shell.length} archivos), la ruta ${sum(route)} gzip (${route.length} archivos)`);
  }
}

// ---------- axe ----------

interface AxeRow {
  page: string;
  id: string;
  impact: string;
  nodes: number;
  target: string;
}

async function axeViolations(context: BrowserContext, spec: PageSpec): Promise<AxeRow[]> {
  const page = await context.newPage();
  await page.goto(base + spec.path);
  await spec.ready(page);
  await page.waitForLoadState('networkidle');
  const result = await new AxeBuilder({ page }).analyze();
  await page.close();
  return result.violations.map((v) => ({
    page: spec.name,
    id: v.id,
    impact: v.impact ?? '',
    nodes: v.nodes.length,
    target: v.nodes[0]?.target.join(' ') ?? '',
  }));
}

// ---------- Lighthouse ----------

interface LhRow {
  page: string;
  preset: string;
  performance: number | null;
  accessibility: number | null;
  lcp: number | null;
  tbt: number | null;
  cls: number | null;
  failedA11y: string[];
}

/**
 * Waits until `check` holds in the page. puppeteer's own waitForFunction never
 * resolved in a tab opened after a Lighthouse run (headless, no frames there),
 * so this polls with plain evaluate calls.
 */
async function pollPage(page: PuppeteerPage, check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  while (!(await page.evaluate(check).catch(() => false))) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out on ${page.url()} waiting for ${check.toString()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function runLighthouse(specs: PageSpec[]): Promise<LhRow[]> {
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ['--headless=new', ...chromeArgs],
  });
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
  const rows: LhRow[] = [];
  try {
    const presets: [string, Config | undefined][] = [['móvil', undefined]];
    if (withDesktop) presets.push(['escritorio', desktopConfig]);
    for (const [preset, config] of presets) {
      let signedIn = false;
      for (const spec of specs) {
        // The portal keeps its session in localStorage, which Lighthouse's own reset leaves alone: end it
        // (on a page of the origin that loads no script) before an anonymous page, and sign in through
        // the portal's own form before the first signed-in one.
        if (!spec.signedIn || !signedIn) {
          const storagePage = await browser.newPage();
          await storagePage.goto(`${base}/api/health`);
          await storagePage.evaluate(() => localStorage.clear());
          if (spec.signedIn) {
            await storagePage.goto(`${base}/entrar`);
            await pollPage(storagePage, () => document.querySelector('input[type="email"]') !== null);
            await storagePage.type('input[type="email"]', customer.email);
            await storagePage.type('input[type="password"]', customer.password);
            await storagePage.click('button[type="submit"]');
            await pollPage(storagePage, () => location.pathname === '/mystudio');
          }
          await storagePage.close();
          signedIn = spec.signedIn;
        }
        const flags: Flags = {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
          // Keep the session in localStorage; the HTTP cache is emptied by hand instead, so every run loads cold.
          disableStorageReset: spec.signedIn,
        };
        let result: Awaited<ReturnType<typeof lighthouse>>;
        // Lighthouse asks for a second run when its trace misses the navigation start (NO_NAVSTART): up to three runs.
        for (let attempt = 1; ; attempt++) {
          const page = await browser.newPage();
          if (spec.signedIn) {
            const cdp = await page.createCDPSession();
            await cdp.send('Network.clearBrowserCache');
            await cdp.detach();
          }
          result = await lighthouse(base + spec.path, flags, config, page);
          await page.close();
          if (!result?.lhr.runtimeError || attempt === 3) break;
          console.log(`  (${spec.name}, ${preset}: ${result.lhr.runtimeError.code}; otra corrida)`);
        }
        if (!result) throw new Error(`Lighthouse returned nothing for ${spec.path}`);
        if (result.lhr.runtimeError) throw new Error(`Lighthouse on ${spec.path} (${preset}): ${result.lhr.runtimeError.message}`);
        const { categories, audits } = result.lhr;
        const failedA11y = Object.values(audits)
          .filter((a) => a.score === 0 && categories.accessibility?.auditRefs.some((ref) => ref.id === a.id && ref.weight > 0))
          .map((a) => a.id);
        rows.push({
          page: spec.name,
          preset,
          performance: categories.performance?.score ?? null,
          accessibility: categories.accessibility?.score ?? null,
          lcp: audits['largest-contentful-paint']?.numericValue ?? null,
          tbt: audits['total-blocking-time']?.numericValue ?? null,
          cls: audits['cumulative-layout-shift']?.numericValue ?? null,
          failedA11y,
        });
      }
    }
  } finally {
    await browser.disconnect();
    chrome.kill();
  }
  return rows;
}

// ---------- run ----------

async function main(): Promise<number> {
  buildPortal();
  const manifestPath = path.join(dist, '.vite', 'manifest.json');
  const manifest = existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>) : null;
  const server = await startServer();
  let browser: Browser | null = null;
  try {
    const checkout = await checkoutPath();
    const specs: PageSpec[] = [
      { name: 'landing /', path: '/', signedIn: false, ready: (p) => p.locator('[data-section="hero"]').waitFor() },
      {
        name: 'calendario /mystudio',
        path: '/mystudio',
        signedIn: true,
        ready: (p) => p.locator('[data-class-id]').first().waitFor(),
      },
      {
        name: `checkout ${checkout}`,
        path: checkout,
        signedIn: true,
        ready: (p) => p.getByRole('radio').first().waitFor(),
      },
    ];
    const [landing, calendar, checkoutSpec] = specs as [PageSpec, PageSpec, PageSpec];

    browser = await chromium.launch({ executablePath: chromePath, args: chromeArgs });
    const contextOptions = { locale: 'es-MX', timezoneId: 'America/Mexico_City' };
    const anonymous = await browser.newContext(contextOptions);
    const landingScripts = await initialScripts(anonymous, landing);
    // Signed in through the portal's own form (the portal rotates its refresh token, so a copied session would go stale).
    const accountContext = await browser.newContext(contextOptions);
    const signInPage = await accountContext.newPage();
    await signInPlaywright(signInPage);
    await signInPage.close();
    const accountScripts = await initialScripts(accountContext, calendar);

    console.log('\n== JavaScript inicial ==');
    const entry = manifest && predictedFiles(manifest, ['index.html']);
    printScripts('Landing /', landingScripts, manifest && predictedFiles(manifest, ['index.html', 'src/pages/public/LandingPage.tsx']), entry);
    printScripts(
      '/mystudio (sesión iniciada)',
      accountScripts,
      manifest && predictedFiles(manifest, ['index.html', 'src/pages/account/AccountArea.tsx', 'src/pages/account/CalendarPage.tsx']),
      entry,
    );

    console.log('\n== axe-core (violaciones) ==');
    const axeRows: AxeRow[] = [];
    axeRows.push(...(await axeViolations(anonymous, landing)));
    axeRows.push(...(await axeViolations(accountContext, calendar)));
    axeRows.push(...(await axeViolations(accountContext, checkoutSpec)));
    await accountContext.close();
    await anonymous.close();
    await browser.close();
    browser = null;
    for (const spec of specs) {
      const rows = axeRows.filter((r) => r.page === spec.name);
      console.log(`  ${spec.name}: ${rows.length === 0 ? 'ninguna' : `${rows.length}`}`);
      for (const r of rows) console.log(`    ${r.id} (${r.impact}, ${r.nodes} nodos) ${r.target}`);
    }

    if (withLighthouse) {
      console.log('\n== Lighthouse 12 (mobile = emulación Moto G Power, throttling simulado; escritorio = preset desktop) ==');
      const rows = await runLighthouse(specs);
      const pct = (x: number | null) => (x === null ? '—' : String(Math.round(x * 100)));
      const ms = (x: number | null) => (x === null ? '—' : `${Math.round(x)} ms`);
      console.log(`  ${'página'.padEnd(24)} ${'preset'.padEnd(11)} ${'perf'.padStart(4)} ${'a11y'.padStart(4)} ${'LCP'.padStart(9)} ${'TBT'.padStart(8)} ${'CLS'.padStart(6)}`);
      for (const r of rows) {
        console.log(
          `  ${r.page.padEnd(24)} ${r.preset.padEnd(11)} ${pct(r.performance).padStart(4)} ${pct(r.accessibility).padStart(4)} ${ms(r.lcp).padStart(9)} ${ms(r.tbt).padStart(8)} ${(r.cls === null ? '—' : r.cls.toFixed(3)).padStart(6)}` +
            (r.failedA11y.length ? `  a11y: ${r.failedA11y.join(', ')}` : ''),
        );
      }
    }
    return 0;
  } finally {
    await browser?.close();
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('No se pudo medir:', error);
    process.exit(1);
  },
);
