import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { parse } from 'yaml';
import { deskServiceV8Flags } from '../src/service/process-protocol.ts';

/**
 * What electron-builder would ship (electron-builder.yml) against what the
 * built main process imports at run time (desktop/out/main/index.js after
 * `npm run desk:build`). Electron's binary cannot be downloaded here, so the
 * package itself is not built: its configuration and its file list are.
 */
const root = path.resolve(import.meta.dirname, '../..');
const desktop = path.join(root, 'desktop');
const mainBundle = path.join(desktop, 'out/main/index.js');

interface FileSet {
  from: string;
  to: string;
  filter: string[];
}
interface BuilderConfig {
  appId: string;
  productName: string;
  directories: { app: string; output: string; buildResources: string };
  files: (string | FileSet)[];
  asarUnpack: string[];
  publish: { provider: string; url: string };
  win: { target: string[] };
  mac: { target: string[] };
  linux: { target: string[]; maintainer: string };
  nsis: { artifactName: string };
}
const config = parse(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
const appDir = path.join(root, config.directories.app);

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (/\.(ts|tsx|sql|json)$/.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** The bundle as it is now: rebuilt when a source the main process is made of is newer than it. */
function builtMain(): string {
  const sources = ['desktop/src/main', 'desktop/src/service', 'desktop/src/web', 'sync/src/client', 'db/src', 'core/src'].map((dir) => newestMtime(path.join(root, dir)));
  const stale = !existsSync(mainBundle) || statSync(mainBundle).mtimeMs < Math.max(...sources, statSync(path.join(desktop, 'electron.vite.config.ts')).mtimeMs);
  if (stale) execFileSync('npm', ['run', 'desk:build'], { cwd: root, stdio: 'pipe', timeout: 600_000 });
  return mainBundle;
}

/** Every module specifier the bundle loads (static and dynamic imports, require), as esbuild parses it (comments and strings are not imports). */
async function importsOf(file: string): Promise<string[]> {
  const result = await build({ entryPoints: [file], bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'silent', external: ['*'] });
  const found = new Set<string>();
  for (const input of Object.values(result.metafile.inputs)) for (const imported of input.imports) if (imported.external) found.add(imported.original ?? imported.path);
  return [...found].filter((s) => !s.startsWith('.') && !s.startsWith('/'));
}

/** The built main process's files: its entry, the desk service's process (decision 134) and the chunks they share. */
function builtMainFiles(): string[] {
  const dir = path.dirname(builtMain());
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js'))
    .map((file) => path.join(dir, file));
}

const packageName = (specifier: string) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? specifier));
const isBuiltin = (specifier: string) => specifier.startsWith('node:') || builtinModules.includes(specifier) || builtinModules.includes(packageName(specifier));

/** The files of the app folder matched by the plain `files` globs (relative to desktop/). */
function appFiles(): string[] {
  const globs = config.files.filter((f): f is string => typeof f === 'string');
  const all: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'release') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else all.push(path.relative(appDir, full).split(path.sep).join('/'));
    }
  };
  walk(appDir);
  return all.filter((file) => globs.some((glob) => path.matchesGlob(file, glob)));
}

/** Where a shipped package's files come from (a from/to set), and which of them pass its filter. */
function shippedPackage(name: string): { dir: string; files: string[] } | null {
  const set = config.files.find((f): f is FileSet => typeof f !== 'string' && f.to === `node_modules/${name}`);
  if (!set) return null;
  const dir = path.resolve(appDir, set.from);
  const files: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.push(path.relative(dir, full).split(path.sep).join('/'));
    }
  };
  walk(dir);
  return { dir, files: files.filter((file) => set.filter.some((glob) => path.matchesGlob(file, glob))) };
}

/**
 * A package's exports entry for a subpath, by Node's rules: the exact key, or
 * a pattern key ('./contrib/*') whose star stands for the rest of the subpath.
 */
function exportsEntry(manifest: { exports?: unknown }, subpath: string): { entry: unknown; star: string } {
  const exports = (manifest.exports ?? {}) as Record<string, unknown>;
  if (subpath in exports) return { entry: exports[subpath], star: '' };
  for (const [key, entry] of Object.entries(exports)) {
    const [prefix, suffix, extra] = key.split('*');
    if (prefix === undefined || suffix === undefined || extra !== undefined) continue;
    if (subpath.startsWith(prefix) && subpath.endsWith(suffix) && subpath.length >= prefix.length + suffix.length) {
      return { entry, star: subpath.slice(prefix.length, subpath.length - suffix.length) };
    }
  }
  return { entry: undefined, star: '' };
}

describe('the packaged desk', () => {
  it('ships every package the built main process imports at run time (the rest is bundled)', { timeout: 600_000 }, async () => {
    const imports = [...new Set((await Promise.all(builtMainFiles().map(importsOf))).flat())];
    expect(imports).toContain('electron');
    // The service's process needs nothing of Electron: it runs the same under Node (the tests, the benches).
    expect(await importsOf(path.join(appDir, 'out/main/service-process.js'))).not.toContain('electron');
    const external = imports.filter((s) => s !== 'electron' && !isBuiltin(s));
    // PGlite is the one library kept outside the bundle (its wasm and data load from beside it).
    expect([...new Set(external.map(packageName))]).toEqual(['@electric-sql/pglite']);
    for (const specifier of external) {
      const shipped = shippedPackage(packageName(specifier));
      expect(shipped, `${specifier} no se empaqueta`).not.toBeNull();
      if (!shipped) continue;
      const manifest = JSON.parse(readFileSync(path.join(shipped.dir, 'package.json'), 'utf8')) as { exports?: unknown; main?: string };
      const subpath = `.${specifier.slice(packageName(specifier).length)}`;
      const { entry, star } = exportsEntry(manifest, subpath);
      const exported = JSON.stringify(entry ?? manifest.main ?? '');
      // Every file its exports entry names (import/require/types) is among the shipped files.
      const targets = [...exported.matchAll(/"\.\/([^"]+)"/g)]
        .map((m) => (m[1] ?? '').replace('*', star))
        .filter((t) => !t.endsWith('.d.ts') && !t.endsWith('.d.cts'));
      expect(targets.length, specifier).toBeGreaterThan(0);
      for (const target of targets) expect(shipped.files, `${specifier} → ${target}`).toContain(target);
      // Its wasm and data files too, and they are unpacked from the asar archive.
      expect(shipped.files.some((f) => f.endsWith('.wasm'))).toBe(true);
      expect(shipped.files.some((f) => f.endsWith('.data'))).toBe(true);
      // An extension (pg_trgm, decision 047) loads its bundle from beside the module.
      if (subpath.startsWith('./contrib/')) expect(shipped.files, specifier).toContain(`dist/${subpath.slice('./contrib/'.length)}.tar.gz`);
      expect(config.asarUnpack).toContain(`node_modules/${packageName(specifier)}/**`);
    }
  });

  it("ships the built main, preload, renderer and the replica's migrations, and package.json's main is among them", { timeout: 600_000 }, async () => {
    builtMain();
    const files = appFiles();
    const manifest = JSON.parse(readFileSync(path.join(appDir, 'package.json'), 'utf8')) as { main: string };
    for (const needed of [manifest.main.replace(/^\.\//, ''), 'out/preload/index.cjs', 'out/renderer/index.html', 'out/migrations/meta/_journal.json', 'package.json']) {
      expect(files, needed).toContain(needed);
    }
    // No sources, tests or build resources go into the app.
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);
    // The preload of a sandboxed window can only require 'electron'.
    expect((await importsOf(path.join(appDir, 'out/preload/index.cjs'))).filter((s) => s !== 'electron')).toEqual([]);
  });

  it('names the product, its author, version and description, and has a real icon', () => {
    const manifest = JSON.parse(readFileSync(path.join(appDir, 'package.json'), 'utf8')) as { version: string; description?: string; author?: { name: string; email: string } };
    expect(config.productName).toBe('Estudio Recepción');
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.description?.length).toBeGreaterThan(10);
    expect(manifest.author?.name).toBeTruthy();
    expect(manifest.author?.email).toMatch(/@/);
    const icon = readFileSync(path.join(root, config.directories.buildResources, 'icon.png'));
    // A PNG of 512×512: electron-builder makes the .ico and .icns from it.
    expect(icon.subarray(1, 4).toString()).toBe('PNG');
    expect([icon.readUInt32BE(16), icon.readUInt32BE(20)]).toEqual([512, 512]);
  });

  it('builds an NSIS installer for Windows, dmg for macOS, AppImage and deb for Linux, and publishes updates to our server', () => {
    expect(config.win.target).toContain('nsis');
    expect(config.mac.target).toContain('dmg');
    // electron-updater on macOS updates from the zip.
    expect(config.mac.target).toContain('zip');
    expect(config.linux.target).toEqual(expect.arrayContaining(['AppImage', 'deb']));
    expect(config.linux.maintainer).toMatch(/@/);
    expect(config.publish.provider).toBe('generic');
    expect(new URL(config.publish.url).pathname).toBe('/desk/updates');
    // Artifact names without spaces or accents: they travel in latest.yml and in update URLs.
    expect(config.nsis.artifactName).toMatch(/^[a-z0-9${}.-]+$/);
  });

  it('the app folder assembled from those files alone starts: replica opened, window loaded, updater asked, closed cleanly', { timeout: 600_000 }, () => {
    builtMain();
    const work = mkdtempSync(path.join(tmpdir(), 'desk-package-'));
    try {
      // The app as electron-builder lays it out: the `files` of desktop/ and each from/to set, nothing else.
      const app = path.join(work, 'app');
      for (const file of appFiles()) {
        mkdirSync(path.dirname(path.join(app, file)), { recursive: true });
        cpSync(path.join(appDir, file), path.join(app, file));
      }
      for (const set of config.files.filter((f): f is FileSet => typeof f !== 'string')) {
        const shipped = shippedPackage(set.to.replace(/^node_modules\//, ''));
        for (const file of shipped?.files ?? []) {
          mkdirSync(path.dirname(path.join(app, set.to, file)), { recursive: true });
          cpSync(path.join(shipped?.dir ?? '', file), path.join(app, set.to, file));
        }
      }
      // Electron's own module, as the packaged app gets it from Electron: a stand-in that logs what main does.
      const fake = path.join(app, 'node_modules/electron');
      mkdirSync(fake, { recursive: true });
      writeFileSync(path.join(fake, 'package.json'), JSON.stringify({ name: 'electron', main: 'index.cjs' }));
      writeFileSync(
        path.join(fake, 'index.cjs'),
        `const fs = require('node:fs');
const log = (event) => process.stdout.write(JSON.stringify(event) + '\\n');
const listeners = {};
const app = {
  isPackaged: true, name: 'Estudio Recepción', getVersion: () => '0.1.0', getName: () => 'Estudio Recepción',
  getAppPath: () => ${JSON.stringify(app)}, getPath: () => ${JSON.stringify(path.join(work, 'user'))},
  requestSingleInstanceLock: () => true, whenReady: () => Promise.resolve(),
  on: (event, listener) => { (listeners[event] ??= []).push(listener); return app; }, once: (event, listener) => app.on(event, listener),
  quit: () => { log({ event: 'quit' }); process.exit(0); }, exit: (code) => { log({ event: 'exit', code }); process.exit(code); },
};
class BrowserWindow {
  static getAllWindows() { return []; }
  constructor(options) {
    this.webContents = { id: 1, on() {}, once() {}, setWindowOpenHandler() {} };
    log({ event: 'window', preload: options.webPreferences.preload, preloadExists: fs.existsSync(options.webPreferences.preload) });
  }
  once() {} on() {} show() {}
  // The window opens the service's link as Chromium would: the key's cookie, then the page it redirects to.
  async loadURL(url) {
    const opened = await fetch(url, { redirect: 'manual' });
    const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0];
    const page = await fetch(new URL(opened.headers.get('location') ?? '/', url), { headers: { cookie } });
    const html = await page.text();
    log({ event: 'load', url, status: page.status, page: html.includes('<div id="root"') });
    // Give the updater its first check, then quit as the user would.
    setTimeout(() => { const event = { preventDefault() { log({ event: 'quit-deferred' }); } }; for (const l of listeners['before-quit'] ?? []) l(event); }, 1500);
  }
}
// Electron's utility process, as Node's fork of the built entry with the same arguments.
exports.utilityProcess = {
  fork(modulePath, args, options) {
    log({ event: 'fork', modulePath, exists: fs.existsSync(modulePath), execArgv: options.execArgv });
    const child = require('node:child_process').fork(modulePath, args, { execArgv: options.execArgv, env: options.env, stdio: 'inherit' });
    child.on('exit', (code) => log({ event: 'service-exit', code }));
    return { postMessage: (message) => child.send(message), on: (event, listener) => child.on(event, listener), kill: () => child.kill() };
  },
};
// One assignment each: Node's ESM import of a CommonJS module sees only these as named exports.
exports.app = app;
exports.BrowserWindow = BrowserWindow;
exports.shell = { openExternal: async () => {} };
exports.dialog = { showErrorBox: (title, text) => log({ event: 'error-box', text }), showMessageBox: async () => ({ response: 1 }) };
exports.ipcMain = { on() {}, removeListener() {}, handle() {} };
exports.contextBridge = {};
exports.ipcRenderer = {};
exports.net = { request() { throw new Error('sin red en la prueba'); } };
exports.session = { fromPartition: () => ({}) };
exports.autoUpdater = { emit() {} };
`,
      );
      const result = spawnSync(process.execPath, [path.join(app, 'out/main/index.js')], {
        cwd: work,
        env: { PATH: process.env.PATH ?? '', HOME: work, DESK_SERVER_URL: 'http://127.0.0.1:9', DESK_DATA_DIR: path.join(work, 'replica') },
        encoding: 'utf8',
        timeout: 300_000,
      });
      const events = result.stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { event: string; exists?: boolean; preloadExists?: boolean; url?: string; status?: number; page?: boolean; modulePath?: string; execArgv?: string[]; code?: number });
      expect(result.status, `${result.stderr}\n${result.stdout}`).toBe(0);
      expect(events.find((e) => e.event === 'error-box')).toBeUndefined();
      // The desk service's process, from the shipped bundle, with its V8 flags.
      const forked = events.find((e) => e.event === 'fork');
      expect(forked?.modulePath).toBe(path.join(app, 'out/main/service-process.js'));
      expect(forked?.exists).toBe(true);
      expect(forked?.execArgv).toEqual([...deskServiceV8Flags]);
      expect(events.find((e) => e.event === 'window')?.preloadExists).toBe(true);
      // The window opened the service's loopback link and got the shipped screens.
      const load = events.find((e) => e.event === 'load');
      expect(load?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?llave=/);
      expect(load).toMatchObject({ status: 200, page: true });
      // Quitting asked the service to close its replica, and it ended cleanly before the app quit.
      expect(events.map((e) => e.event)).toEqual(['fork', 'window', 'load', 'quit-deferred', 'service-exit', 'quit']);
      expect(events.find((e) => e.event === 'service-exit')?.code).toBe(0);
      // The bundled electron-updater ran its check: on Linux, outside an AppImage, it says so and stands down.
      if (process.platform === 'linux') expect(result.stderr).toContain('APPIMAGE env is not defined');
      // The replica was built from the shipped migrations.
      expect(existsSync(path.join(work, 'replica', 'PG_VERSION'))).toBe(true);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
