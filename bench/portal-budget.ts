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
//   BENCH_BASELINE=9b8927a npx tsx bench/portal-budget.ts   (before and after in one run)
//
// Pages: the landing `/`, `/paquetes` and the public calendar `/calendario`
// (anonymous), the account's calendar `/mystudio` and a checkout (signed in).
// With BENCH_BASELINE=<git ref>, the ref is checked out as a git worktree in
// .tmp/portal-budget-baseline (node_modules hard-linked from this tree with
// `cp -al`, so the workspaces' relative links point into the worktree), built
// and served on BENCH_PORT+1 beside this tree on BENCH_PORT; each page is
// measured on the baseline and then on this tree, one after the other, so both
// see the same machine, and the tables show both with the ratio now/before.
//
// Builds the portal with its manifest into .tmp/portal-budget-dist (or reuses the
// build in PORTAL_BUDGET_DIST), starts the server on its embedded defaults
// (PGlite, the demo seed) in a throw-away .tmp/portal-budget-data on port 3331,
// and stops it at the end. Knobs: BENCH_PORT (3331), PORTAL_BUDGET_DIST (a built
// portal to reuse; not with BENCH_BASELINE), BENCH_LH_DESKTOP=0 (skip the desktop
// preset), BENCH_LH=0 (skip Lighthouse), BENCH_BASELINE (a git ref to compare with), BENCH_PAGES
// (a comma-separated list of the paths to measure: /, /paquetes, /calendario, /mystudio, /checkout), BENCH_BASELINE_MODULES
// (a folder of packages the baseline needs that this tree no longer installs, laid out as node_modules), BENCH_LH_RUNS
// (Lighthouse runs per page and tree, the median one shown; 1), BENCH_LH_SAVE (a folder for every Lighthouse report as JSON),
// BENCH_LH_CPU (the mobile preset's CPU slowdown instead of its 4×: how the blocking time holds on a slower host).
// Exits non-zero only when a figure could not be measured.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';
import { AxeBuilder } from '@axe-core/playwright';
import lighthouse, { desktopConfig, type Config, type Flags } from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import puppeteer, { type Page as PuppeteerPage } from 'puppeteer-core';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.BENCH_PORT ?? 3331);
const baselineRef = process.env.BENCH_BASELINE || null;
const reusedDist = process.env.PORTAL_BUDGET_DIST && !baselineRef ? path.resolve(process.env.PORTAL_BUDGET_DIST) : null;
const withLighthouse = process.env.BENCH_LH !== '0';
const withDesktop = process.env.BENCH_LH_DESKTOP !== '0';
// Lighthouse runs per page and tree; each row is the run with the median performance score (one run wanders by
// hundreds of milliseconds of TBT on a shared machine).
const lighthouseRuns = Math.max(1, Number(process.env.BENCH_LH_RUNS ?? 1) || 1);
// The mobile preset's CPU slowdown (4× by default): a host twice as fast as a slower one measures like it at 8×.
const cpuSlowdown = Number(process.env.BENCH_LH_CPU) || null;
// Every Lighthouse report as JSON in this folder (its long tasks, bootup time and network waterfall), when set.
const savedReportsDir = process.env.BENCH_LH_SAVE ? path.resolve(process.env.BENCH_LH_SAVE) : null;
const chromePath = '/usr/bin/chromium';
const chromeArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const customer = { email: 'cliente@estudio.demo', password: 'Demo1234!' };
const GZIP_LEVEL = 6;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** A checkout of the portal to measure: this tree, or the baseline's worktree. */
interface Tree {
  label: string;
  root: string;
  port: number;
  base: string;
  dist: string;
  dataDir: string;
  reusedDist: boolean;
  manifest: Record<string, ManifestChunk> | null;
  server: ChildProcess | null;
}

function treeAt(label: string, treeRoot: string, treePort: number, dist: string | null): Tree {
  return {
    label,
    root: treeRoot,
    port: treePort,
    base: `http://127.0.0.1:${treePort}`,
    dist: dist ?? path.join(treeRoot, '.tmp', 'portal-budget-dist'),
    dataDir: path.join(treeRoot, '.tmp', `portal-budget-data-${treePort}`),
    reusedDist: dist !== null,
    manifest: null,
    server: null,
  };
}

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status})`);
  return result.stdout.trim();
}

/**
 * The baseline ref checked out beside this tree, with this tree's
 * node_modules hard-linked in (an install per run would need the network and
 * minutes); the workspaces' links are relative, so @estudio/* resolve inside
 * the worktree, which is checked.
 */
function prepareBaseline(ref: string): string {
  const dir = path.join(root, '.tmp', 'portal-budget-baseline');
  const commit = run('git', ['rev-parse', '--verify', `${ref}^{commit}`], root);
  if (existsSync(dir)) {
    run('git', ['worktree', 'remove', '--force', dir], root);
  }
  run('git', ['worktree', 'add', '--detach', dir, commit], root);
  console.log(`Línea base ${ref} (${commit.slice(0, 10)}) en ${path.relative(root, dir)}`);
  const modules = run('bash', ['-c', 'find . -name node_modules -type d -prune -not -path "./.tmp/*" -not -path "./.git/*"'], root).split('\n').filter(Boolean);
  for (const folder of modules) {
    const target = path.join(dir, folder);
    if (existsSync(target)) continue;
    run('cp', ['-al', path.join(root, folder), target], root);
  }
  // BENCH_BASELINE_MODULES=<folder>: packages the baseline needs that the tree has since dropped (its node_modules is the
  // tree's), laid out as in node_modules (<folder>/@fastify/helmet…), copied into the baseline's node_modules.
  const extra = process.env.BENCH_BASELINE_MODULES;
  if (extra) run('cp', ['-a', `${path.resolve(extra)}/.`, path.join(dir, 'node_modules')], root);
  const core = realpathSync(path.join(dir, 'node_modules', '@estudio', 'core'));
  if (!core.startsWith(dir + path.sep)) throw new Error(`@estudio/core resolves outside the baseline worktree: ${core}`);
  return dir;
}

function buildPortal(tree: Tree): void {
  if (tree.reusedDist) {
    if (!existsSync(path.join(tree.dist, 'index.html'))) throw new Error(`PORTAL_BUDGET_DIST=${tree.dist} has no index.html`);
  } else {
    console.log(`Construyendo el portal de ${tree.label} (con su manifest)…`);
    const build = spawnSync('npm', ['run', 'build', '-w', '@estudio/portal', '--', '--outDir', tree.dist, '--emptyOutDir', '--manifest'], {
      cwd: tree.root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (build.status !== 0) throw new Error(`portal build of ${tree.label} failed (${build.status})`);
  }
  const manifestPath = path.join(tree.dist, '.vite', 'manifest.json');
  tree.manifest = existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>) : null;
}

async function startServer(tree: Tree): Promise<void> {
  rmSync(tree.dataDir, { recursive: true, force: true });
  const child = spawn(process.execPath, [path.join(tree.root, 'scripts', 'start.mjs')], {
    cwd: tree.root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(tree.port),
      HOST: '127.0.0.1',
      DATA_DIR: tree.dataDir,
      DATABASE_URL: '',
      PORTAL_DIST: tree.dist,
      START_DESK: '0',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      AUTH_RATE_LIMIT_MAX: '1000',
    },
  });
  tree.server = child;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server of ${tree.label} exited with ${child.exitCode}`);
    const up = await fetch(`${tree.base}/api/health`).then((r) => r.ok, () => false);
    if (up) return;
    if (Date.now() - started > 180_000) throw new Error(`the server of ${tree.label} did not answer within 180 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function stopServer(tree: Tree): Promise<void> {
  const child = tree.server;
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(tree.dataDir, { recursive: true, force: true });
}

/** The checkout the budget measures: the demo shop's '5 Clases'. */
async function checkoutPath(base: string): Promise<string> {
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

async function signInPlaywright(page: Page, base: string): Promise<void> {
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
  /** Asked for before the page's `load` event: what competes with the page's pictures and styles (decision 036). */
  beforeLoad: boolean;
}

/** Every script response of one page load until the network is idle, from an empty HTTP cache. */
async function initialScripts(context: BrowserContext, spec: PageSpec, base: string): Promise<Script[]> {
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
          beforeLoad: true,
        }),
        () => null,
      ),
    );
  });
  await page.goto(base + spec.path);
  await spec.ready(page);
  await page.waitForLoadState('networkidle');
  // The page's own clock says which scripts were asked for before its load event (Playwright's events can arrive out
  // of order with the requests that the load event itself starts).
  const afterLoad = new Set(
    await page.evaluate(() => {
      const loadAt = (performance.getEntriesByType('navigation')[0]?.toJSON() as { loadEventStart?: number } | undefined)?.loadEventStart ?? Infinity;
      return performance
        .getEntriesByType('resource')
        .filter((entry) => entry.startTime >= loadAt)
        .map((entry) => new URL(entry.name).pathname);
    }),
  );
  const scripts = (await Promise.all(bodies)).filter((s): s is Script => s !== null).map((s) => ({ ...s, beforeLoad: !afterLoad.has(s.file) }));
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
    console.log(`  ${mark} ${s.file.padEnd(58)} ${kb(s.gzip).padStart(10)} ${kb(s.raw).padStart(11)} ${kb(s.sent).padStart(11)}${s.beforeLoad ? '' : '  después de load'}`);
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

async function axeViolations(context: BrowserContext, spec: PageSpec, base: string): Promise<AxeRow[]> {
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
  tree: string;
  page: string;
  preset: string;
  performance: number | null;
  accessibility: number | null;
  fcp: number | null;
  lcp: number | null;
  tbt: number | null;
  cls: number | null;
  failedA11y: string[];
  /** The LCP element (its HTML, shortened) and where its time went (TTFB, load delay, load time, render delay). */
  lcpElement: string | null;
  lcpPhases: string | null;
  /** Pictures (Lighthouse's network requests of type Image): how many, and their bytes on the wire. */
  images: { count: number; bytes: number };
  /** What 'uses-responsive-images' and 'modern-image-formats' say could be saved (bytes), and their scores (decision 049). */
  responsiveImages: { score: number | null; savings: number };
  modernFormats: { score: number | null; savings: number };
  /** How many runs the row is the median of. */
  runs?: number;
  /** Lighthouse's measure of the host's CPU (environment.benchmarkIndex), and the CPU slowdown the run applied. */
  benchmarkIndex: number | null;
  cpuSlowdown: number | null;
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

/** One Lighthouse run of one page of one tree, from an empty HTTP cache. */
async function lighthouseRow(browser: Browser2, chromePort: number, tree: Tree, spec: PageSpec, preset: string, config: Config | undefined): Promise<LhRow> {
  const flags: Flags = {
    port: chromePort,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
    // Keep the session in localStorage; the HTTP cache is emptied by hand instead, so every run loads cold.
    disableStorageReset: spec.signedIn,
    // BENCH_LH_CPU: a heavier CPU slowdown than the preset's 4×, to see how the blocking time holds on a slower host.
    ...(cpuSlowdown && !config ? { throttling: { cpuSlowdownMultiplier: cpuSlowdown } } : {}),
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
    result = await lighthouse(tree.base + spec.path, flags, config, page);
    await page.close();
    if (!result?.lhr.runtimeError || attempt === 3) break;
    console.log(`  (${tree.label} ${spec.name}, ${preset}: ${result.lhr.runtimeError.code}; otra corrida)`);
  }
  if (!result) throw new Error(`Lighthouse returned nothing for ${spec.path}`);
  if (result.lhr.runtimeError) throw new Error(`Lighthouse on ${tree.label} ${spec.path} (${preset}): ${result.lhr.runtimeError.message}`);
  if (savedReportsDir) {
    mkdirSync(savedReportsDir, { recursive: true });
    const name = `${tree.label}-${spec.name}-${preset}-${Date.now()}.json`.replace(/[^\w.-]+/g, '_');
    writeFileSync(path.join(savedReportsDir, name), JSON.stringify(result.lhr));
  }
  const { categories, audits } = result.lhr;
  const failedA11y = Object.values(audits)
    .filter((a) => a.score === 0 && categories.accessibility?.auditRefs.some((ref) => ref.id === a.id && ref.weight > 0))
    .map((a) => a.id);
  return {
    tree: tree.label,
    page: spec.name,
    preset,
    performance: categories.performance?.score ?? null,
    accessibility: categories.accessibility?.score ?? null,
    lcp: audits['largest-contentful-paint']?.numericValue ?? null,
    tbt: audits['total-blocking-time']?.numericValue ?? null,
    cls: audits['cumulative-layout-shift']?.numericValue ?? null,
    failedA11y,
    fcp: audits['first-contentful-paint']?.numericValue ?? null,
    ...lcpBreakdown(audits['largest-contentful-paint-element']?.details),
    images: imageRequests(audits['network-requests']?.details),
    responsiveImages: imageAudit(audits['uses-responsive-images']),
    modernFormats: imageAudit(audits['modern-image-formats']),
    benchmarkIndex: result.lhr.environment.benchmarkIndex ?? null,
    cpuSlowdown: result.lhr.configSettings.throttling?.cpuSlowdownMultiplier ?? null,
  };
}

/** The pictures among the page's requests (Lighthouse loads the page without scrolling: lazy ones below the fold are not there). */
function imageRequests(details: unknown): { count: number; bytes: number } {
  const items = (details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
  const images = items.filter((item) => item.resourceType === 'Image');
  return { count: images.length, bytes: images.reduce((sum, item) => sum + (item.transferSize ?? 0), 0) };
}

function imageAudit(audit: { score: number | null; details?: unknown } | undefined): { score: number | null; savings: number } {
  return { score: audit?.score ?? null, savings: (audit?.details as { overallSavingsBytes?: number } | undefined)?.overallSavingsBytes ?? 0 };
}

/** The 'largest-contentful-paint-element' audit's details: a table with the node, then one with the phases. */
function lcpBreakdown(details: unknown): { lcpElement: string | null; lcpPhases: string | null } {
  type Table = { type?: string; items?: Record<string, unknown>[] };
  const tables = ((details as { items?: Table[] } | undefined)?.items ?? []).filter((t) => t.type === 'table');
  const node = tables[0]?.items?.[0]?.node as { snippet?: string } | undefined;
  const phases = (tables[1]?.items ?? []).map((row) => `${String(row.phase)} ${Math.round(Number(row.timing))} ms`);
  return { lcpElement: node?.snippet?.replace(/\s+/g, ' ').slice(0, 110) ?? null, lcpPhases: phases.length ? phases.join(', ') : null };
}

type Browser2 = Awaited<ReturnType<typeof puppeteer.connect>>;

/** The run with the median performance score: its LCP, TBT and CLS belong together, unlike medians taken one by one. */
function medianRun(runs: LhRow[]): LhRow {
  const sorted = [...runs].sort((a, b) => (a.performance ?? 0) - (b.performance ?? 0));
  const median = sorted[Math.floor(sorted.length / 2)];
  if (!median) throw new Error('no Lighthouse run');
  return { ...median, runs: runs.length };
}

/** Each page on every tree in turn (baseline, then this tree), so both are measured under the same load. */
async function runLighthouse(trees: { tree: Tree; specs: PageSpec[] }[]): Promise<LhRow[]> {
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
      const signedIn = new Map<Tree, boolean>();
      for (let index = 0; index < trees[0]!.specs.length; index++) {
        const runsOf = new Map<Tree, LhRow[]>();
        // Runs alternate between the trees (before, now, before, now…) so both see the same moments of the machine.
        for (let run = 0; run < lighthouseRuns; run++) {
          for (const { tree, specs } of trees) {
            const spec = specs[index]!;
            // The portal keeps its session in localStorage, which Lighthouse's own reset leaves alone: end it
            // (on a page of the origin that loads no script) before an anonymous page, and sign in through
            // the portal's own form before the first signed-in one.
            if (!spec.signedIn || !signedIn.get(tree)) {
              const storagePage = await browser.newPage();
              await storagePage.goto(`${tree.base}/api/health`);
              await storagePage.evaluate(() => localStorage.clear());
              if (spec.signedIn) {
                await storagePage.goto(`${tree.base}/entrar`);
                await pollPage(storagePage, () => document.querySelector('input[type="email"]') !== null);
                await storagePage.type('input[type="email"]', customer.email);
                await storagePage.type('input[type="password"]', customer.password);
                await storagePage.click('button[type="submit"]');
                await pollPage(storagePage, () => location.pathname === '/mystudio');
              }
              await storagePage.close();
              signedIn.set(tree, spec.signedIn);
            }
            runsOf.set(tree, [...(runsOf.get(tree) ?? []), await lighthouseRow(browser, chrome.port, tree, spec, preset, config)]);
          }
        }
        for (const { tree } of trees) rows.push(medianRun(runsOf.get(tree) ?? []));
      }
    }
  } finally {
    await browser.disconnect();
    chrome.kill();
  }
  return rows;
}

// ---------- run ----------

/** The pages measured, with what shows each is ready (not the loader). */
function pageSpecs(checkout: string): PageSpec[] {
  // BENCH_PAGES=/,/calendario measures only those paths (quicker, while working on one page).
  const only = process.env.BENCH_PAGES?.split(',').map((p) => p.trim());
  const all: PageSpec[] = [
    { name: 'landing /', path: '/', signedIn: false, ready: (p) => p.locator('[data-section="hero"]').waitFor() },
    { name: 'paquetes /paquetes', path: '/paquetes', signedIn: false, ready: (p) => p.getByRole('heading', { level: 3 }).first().waitFor() },
    { name: 'calendario /calendario', path: '/calendario', signedIn: false, ready: (p) => p.locator('[data-class-id]').first().waitFor() },
    { name: 'calendario /mystudio', path: '/mystudio', signedIn: true, ready: (p) => p.locator('[data-class-id]').first().waitFor() },
    { name: `checkout ${checkout}`, path: checkout, signedIn: true, ready: (p) => p.getByRole('radio').first().waitFor() },
  ];
  return only ? all.filter((spec) => only.includes(spec.path) || (only.includes('/checkout') && spec.path.startsWith('/checkout/'))) : all;
}

/** The manifest keys of a page's route chunks, for the chunk-by-chunk table. */
const routeModules: Record<string, string[]> = {
  '/': ['src/pages/public/LandingPage.tsx'],
  '/paquetes': ['src/pages/shop/PublicPackagesPage.tsx'],
  '/calendario': ['src/pages/public/SchedulePage.tsx'],
  '/mystudio': ['src/pages/account/AccountArea.tsx', 'src/pages/account/CalendarPage.tsx'],
};

interface Measured {
  tree: Tree;
  specs: PageSpec[];
  scripts: Map<string, Script[]>;
  axe: AxeRow[];
}

/** Initial JavaScript and axe of every page of one tree. */
async function measureTree(browser: Browser, tree: Tree): Promise<Measured> {
  const specs = pageSpecs(await checkoutPath(tree.base));
  const contextOptions = { locale: 'es-MX', timezoneId: 'America/Mexico_City' };
  const anonymous = await browser.newContext(contextOptions);
  // Signed in through the portal's own form (the portal rotates its refresh token, so a copied session would go stale).
  const account = await browser.newContext(contextOptions);
  const signInPage = await account.newPage();
  await signInPlaywright(signInPage, tree.base);
  await signInPage.close();
  const scripts = new Map<string, Script[]>();
  const axe: AxeRow[] = [];
  for (const spec of specs) {
    const context = spec.signedIn ? account : anonymous;
    scripts.set(spec.name, await initialScripts(context, spec, tree.base));
    axe.push(...(await axeViolations(context, spec, tree.base)));
  }
  await account.close();
  await anonymous.close();
  return { tree, specs, scripts, axe };
}

const ratio = (now: number | null, before: number | null) => (now === null || before === null || before === 0 ? '' : `×${(now / before).toFixed(2)}`);

async function main(): Promise<number> {
  const trees: Tree[] = [];
  if (baselineRef) trees.push(treeAt(`antes (${baselineRef})`, prepareBaseline(baselineRef), port + 1, null));
  trees.push(treeAt(baselineRef ? 'ahora' : 'este árbol', root, port, reusedDist));
  let browser: Browser | null = null;
  try {
    for (const tree of trees) buildPortal(tree);
    for (const tree of trees) await startServer(tree);
    browser = await chromium.launch({ executablePath: chromePath, args: chromeArgs });
    const measured: Measured[] = [];
    for (const tree of trees) measured.push(await measureTree(browser, tree));
    await browser.close();
    browser = null;

    const current = measured[measured.length - 1]!;
    console.log(`\n== JavaScript inicial (${current.tree.label}, archivo por archivo) ==`);
    const manifest = current.tree.manifest;
    const entry = manifest && predictedFiles(manifest, ['index.html']);
    for (const spec of current.specs) {
      const modules = routeModules[spec.path];
      printScripts(spec.name, current.scripts.get(spec.name)!, manifest && modules ? predictedFiles(manifest, ['index.html', ...modules]) : null, entry);
    }

    const gzipOf = (m: Measured, name: string) => (m.scripts.get(name) ?? []).reduce((sum, s) => sum + s.gzip, 0);
    const sentOf = (m: Measured, name: string) => (m.scripts.get(name) ?? []).reduce((sum, s) => sum + s.sent, 0);
    const gzipBeforeLoadOf = (m: Measured, name: string) => (m.scripts.get(name) ?? []).filter((s) => s.beforeLoad).reduce((sum, s) => sum + s.gzip, 0);
    console.log('\n== JavaScript inicial, gzip nivel 6 (enviado por el servidor) ==');
    console.log(`  ${'página'.padEnd(26)} ${measured.map((m) => m.tree.label.padStart(26)).join(' ')}${measured.length > 1 ? '  ahora/antes' : ''}`);
    for (const [index, spec] of current.specs.entries()) {
      const cells = measured.map((m) => {
        const name = m.specs[index]!.name;
        return `${kb(gzipOf(m, name))} (${kb(sentOf(m, name))})`.padStart(26);
      });
      const before = measured.length > 1 ? gzipOf(measured[0]!, measured[0]!.specs[index]!.name) : null;
      console.log(`  ${spec.name.padEnd(26)} ${cells.join(' ')}  ${ratio(gzipOf(current, spec.name), before)}`);
    }
    // The same downloads, counting only what the page asked for before its load event (decision 036: a pre-rendered
    // page asks for the app after it).
    console.log('\n== De ello, pedido antes del evento load de la página, gzip nivel 6 ==');
    console.log(`  ${'página'.padEnd(26)} ${measured.map((m) => m.tree.label.padStart(26)).join(' ')}${measured.length > 1 ? '  ahora/antes' : ''}`);
    for (const [index, spec] of current.specs.entries()) {
      const cells = measured.map((m) => kb(gzipBeforeLoadOf(m, m.specs[index]!.name)).padStart(26));
      const before = measured.length > 1 ? gzipBeforeLoadOf(measured[0]!, measured[0]!.specs[index]!.name) : null;
      console.log(`  ${spec.name.padEnd(26)} ${cells.join(' ')}  ${ratio(gzipBeforeLoadOf(current, spec.name), before)}`);
    }

    console.log('\n== axe-core (violaciones) ==');
    for (const m of measured) {
      for (const spec of m.specs) {
        const rows = m.axe.filter((r) => r.page === spec.name);
        console.log(`  ${m.tree.label} ${spec.name}: ${rows.length === 0 ? 'ninguna' : `${rows.length}`}`);
        for (const r of rows) console.log(`    ${r.id} (${r.impact}, ${r.nodes} nodos) ${r.target}`);
      }
    }

    if (withLighthouse) {
      console.log(
        `\n== Lighthouse 12 (móvil = emulación Moto G Power, throttling simulado; escritorio = preset desktop)${lighthouseRuns > 1 ? `, la corrida mediana de ${lighthouseRuns}` : ''} ==`,
      );
      const rows = await runLighthouse(measured.map((m) => ({ tree: m.tree, specs: m.specs })));
      const pct = (x: number | null) => (x === null ? '—' : String(Math.round(x * 100)));
      const ms = (x: number | null) => (x === null ? '—' : `${Math.round(x)} ms`);
      console.log(
        `  ${'página'.padEnd(26)} ${'preset'.padEnd(11)} ${'árbol'.padEnd(18)} ${'perf'.padStart(4)} ${'a11y'.padStart(4)} ${'LCP'.padStart(9)} ${'TBT'.padStart(8)} ${'CLS'.padStart(6)}  LCP ahora/antes`,
      );
      for (const r of rows) {
        const before = baselineRef && r.tree !== trees[0]!.label ? rows.find((b) => b.tree === trees[0]!.label && b.preset === r.preset && b.page === r.page) : undefined;
        console.log(
          `  ${r.page.padEnd(26)} ${r.preset.padEnd(11)} ${r.tree.padEnd(18)} ${pct(r.performance).padStart(4)} ${pct(r.accessibility).padStart(4)} ${ms(r.lcp).padStart(9)} ${ms(r.tbt).padStart(8)} ${(r.cls === null ? '—' : r.cls.toFixed(3)).padStart(6)}` +
            (before ? `  ${ratio(r.lcp, before.lcp)}` : '') +
            (r.failedA11y.length ? `  a11y: ${r.failedA11y.join(', ')}` : ''),
        );
      }
      // Lighthouse's CPU slowdown is relative to the host: its 4x takes a host of benchmarkIndex 1,500-2,000 to a
      // mid-tier phone (lighthouse/docs/throttling.md); a faster host needs more to measure the same phone.
      const indexes = rows.map((r) => r.benchmarkIndex).filter((x): x is number => x !== null).sort((a, b) => a - b);
      const slowdowns = [...new Set(rows.filter((r) => r.preset === 'móvil').map((r) => r.cpuSlowdown))];
      if (indexes.length) {
        console.log(
          `\n  CPU del anfitrión (benchmarkIndex de Lighthouse): mediana ${Math.round(indexes[indexes.length >> 1]!)}, de ${Math.round(indexes[0]!)} a ${Math.round(indexes.at(-1)!)}; ` +
            `lentitud de CPU del preset móvil: ${slowdowns.join(', ')}×. El 4× de Lighthouse lleva un anfitrión de 1,500–2,000 a un teléfono de gama media; uno más rápido pide más (BENCH_LH_CPU).`,
        );
      }
      console.log('\n  Imágenes (pedidas al cargar; Lighthouse no desplaza la página) y lo que dos auditorías dicen que sobra:');
      console.log(`  ${'página'.padEnd(26)} ${'preset'.padEnd(11)} ${'árbol'.padEnd(18)} ${'imágenes'.padStart(17)}  ${'uses-responsive-images'.padStart(24)}  ${'modern-image-formats'.padStart(22)}`);
      for (const r of rows) {
        const audit = (a: { score: number | null; savings: number }) => `${a.score === null ? '—' : a.score === 1 ? 'pasa' : `score ${a.score}`}, ${kb(a.savings)}`;
        console.log(
          `  ${r.page.padEnd(26)} ${r.preset.padEnd(11)} ${r.tree.padEnd(18)} ${`${r.images.count}: ${kb(r.images.bytes)}`.padStart(17)}  ${audit(r.responsiveImages).padStart(24)}  ${audit(r.modernFormats).padStart(22)}`,
        );
      }
      console.log('\n  De qué está hecho cada LCP (FCP; el elemento; TTFB, espera antes de cargar, carga, espera para pintar):');
      for (const r of rows) {
        console.log(`  ${r.page} ${r.preset} ${r.tree}: FCP ${ms(r.fcp)}; ${r.lcpElement ?? '—'}`);
        if (r.lcpPhases) console.log(`      ${r.lcpPhases}`);
      }
    }
    return 0;
  } finally {
    await browser?.close();
    for (const tree of trees) await stopServer(tree);
    // The worktree (and its hard-linked node_modules) is rebuilt on every run; git forgets it.
    if (baselineRef && trees[0]) spawnSync('git', ['worktree', 'remove', '--force', trees[0].root], { cwd: root, stdio: 'ignore' });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('No se pudo medir:', error);
    process.exit(1);
  },
);
