import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fork, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deskServiceV8Flags } from '../src/service/process-protocol.ts';

/**
 * Electron's main process (desktop/src/main/index.ts) with a mocked `electron`
 * (its binary cannot run here) and a mocked electron-updater's autoUpdater.
 * Its utility process is Node's fork of the real service entry, on a
 * temporary replica: the same entry, messages and V8 flags.
 */
type Listener = (...args: unknown[]) => unknown;

const electron = vi.hoisted(() => {
  const appListeners = new Map<string, Listener>();
  const windows: FakeWindow[] = [];
  class FakeWindow {
    static getAllWindows = () => windows;
    readonly options: Record<string, unknown>;
    readonly listeners = new Map<string, Listener>();
    openHandler: ((details: { url: string }) => { action: string }) | null = null;
    loaded: string | null = null;
    focused = false;
    readonly webContents = {
      id: 1,
      on: (event: string, listener: Listener) => this.listeners.set(event, listener),
      once: (event: string, listener: Listener) => this.listeners.set(event, listener),
      setWindowOpenHandler: (handler: (details: { url: string }) => { action: string }) => (this.openHandler = handler),
    };
    constructor(options: Record<string, unknown>) {
      this.options = options;
      windows.push(this);
    }
    once(event: string, listener: Listener) {
      this.listeners.set(event, listener);
    }
    loadFile(file: string) {
      this.loaded = file;
      return Promise.resolve();
    }
    loadURL(url: string) {
      this.loaded = url;
      return Promise.resolve();
    }
    isMinimized = () => false;
    restore() {}
    focus() {
      this.focused = true;
    }
    show() {}
  }
  return {
    appListeners,
    windows,
    FakeWindow,
    lock: true,
    userData: '',
    app: {
      isPackaged: true,
      requestSingleInstanceLock: vi.fn(() => electron.lock),
      on: vi.fn((event: string, listener: Listener) => appListeners.set(event, listener)),
      whenReady: () => Promise.resolve(),
      getPath: () => electron.userData,
      quit: vi.fn(),
      exit: vi.fn(),
    },
    shell: { openExternal: vi.fn(() => Promise.resolve()) },
    dialog: { showErrorBox: vi.fn(), showMessageBox: vi.fn(() => Promise.resolve({ response: 1 })) },
    services: [] as ChildProcess[],
    forks: [] as { modulePath: string; options: { execArgv?: string[]; env?: Record<string, string | undefined>; serviceName?: string } }[],
    updater: {
      autoDownload: false,
      autoInstallOnAppQuit: false,
      setFeedURL: vi.fn(),
      checkForUpdates: vi.fn(() => Promise.resolve(null)),
      quitAndInstall: vi.fn(),
      on: vi.fn(),
    },
  };
});

vi.mock('electron', () => ({
  app: electron.app,
  BrowserWindow: electron.FakeWindow,
  shell: electron.shell,
  dialog: electron.dialog,
  // Electron's utility process, as Node's fork of the service's TypeScript entry (the built desk runs its bundle).
  utilityProcess: {
    fork: (modulePath: string, _args: string[], options: (typeof electron.forks)[number]['options']) => {
      electron.forks.push({ modulePath, options });
      const entry = path.join(import.meta.dirname, '../src/web/service-process.ts');
      const child = fork(entry, [], { execArgv: [...(options.execArgv ?? []), '--import', 'tsx'], env: options.env, stdio: 'inherit' });
      electron.services.push(child);
      return {
        postMessage: (message: unknown) => child.send(message as object),
        on: (event: string, listener: Listener) => child.on(event, listener),
        kill: () => child.kill(),
      };
    },
  },
}));
vi.mock('electron-updater', () => ({ default: { autoUpdater: electron.updater } }));

const serverUrl = 'http://127.0.0.1:9';
let work: string;

const until = async (what: string, check: () => boolean, timeoutMs = 60_000) => {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`esperando: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'desk-main-'));
  electron.userData = work;
  process.env.DESK_SERVER_URL = serverUrl;
  delete process.env.DESK_DATA_DIR;
  await import('../src/main/index.ts');
  await until('la ventana', () => electron.windows.length > 0);
}, 120_000);

afterAll(async () => {
  // Quitting closes the replica first (before-quit), then quits for real.
  const beforeQuit = electron.appListeners.get('before-quit');
  const event = { preventDefault: vi.fn() };
  beforeQuit?.(event);
  await until('el cierre', () => electron.app.quit.mock.calls.length > 0);
  // Asked to close, the service closed its replica and ended by itself.
  const service = electron.services.at(-1);
  expect(service?.exitCode).toBe(0);
  delete process.env.DESK_SERVER_URL;
  rmSync(work, { recursive: true, force: true });
});

describe('the Electron main process', () => {
  it('holds the single-instance lock (one PGlite replica per machine) and focuses the open window on a second launch', () => {
    expect(electron.app.requestSingleInstanceLock).toHaveBeenCalledTimes(1);
    electron.appListeners.get('second-instance')?.();
    expect(electron.windows[0]?.focused).toBe(true);
  });

  it("starts the desk service in its own process with the service's V8 flags, its replica in the user's application data", () => {
    expect(electron.forks).toHaveLength(1);
    const [{ modulePath, options }] = electron.forks as [(typeof electron.forks)[number]];
    // Beside the built main process, as electron.vite.config.ts builds it.
    expect(path.basename(modulePath)).toBe('service-process.js');
    expect(path.dirname(modulePath)).toBe(path.join(import.meta.dirname, '../src/main'));
    expect(options.execArgv).toEqual([...deskServiceV8Flags]);
    expect(options.env?.DESK_DATA_DIR).toBe(path.join(work, 'replica'));
    expect(options.env?.DESK_PORT).toBe('0');
    expect(electron.dialog.showErrorBox).not.toHaveBeenCalled();
  });

  it("opens an isolated, sandboxed window without Node on the service's loopback link, which only that window's key opens", async () => {
    const win = electron.windows[0];
    const prefs = win?.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({ contextIsolation: true, nodeIntegration: false, sandbox: true });
    expect(String(prefs.preload)).toMatch(/preload[\\/]index\.cjs$/);
    const link = new URL(win?.loaded ?? '');
    expect(link.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const key = link.searchParams.get('llave') ?? '';
    expect(key.length).toBeGreaterThan(20);
    // The router answers the key's cookie, nothing else on this machine.
    const refused = await fetch(new URL('/trpc/session.get', link));
    expect(refused.status).toBe(401);
    const opened = await fetch(link, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toContain(key);
    const answered = await fetch(new URL('/trpc/session.get', link), { headers: { cookie } });
    expect(answered.status).toBe(200);
  });

  it('sends web links to the system browser and never opens or navigates to anything in the desk window', () => {
    const win = electron.windows[0];
    expect(win?.openHandler?.({ url: 'https://estudio.mx/mapa' })).toEqual({ action: 'deny' });
    expect(electron.shell.openExternal).toHaveBeenCalledWith('https://estudio.mx/mapa');
    electron.shell.openExternal.mockClear();
    expect(win?.openHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(electron.shell.openExternal).not.toHaveBeenCalled();

    const navigate = win?.listeners.get('will-navigate');
    const away = { preventDefault: vi.fn() };
    navigate?.(away, 'https://otro-sitio.mx/');
    expect(away.preventDefault).toHaveBeenCalled();
    expect(electron.shell.openExternal).toHaveBeenCalledWith('https://otro-sitio.mx/');
    const fileAway = { preventDefault: vi.fn() };
    navigate?.(fileAway, 'file:///etc/passwd');
    expect(fileAway.preventDefault).toHaveBeenCalled();
    const own = { preventDefault: vi.fn() };
    navigate?.(own, `${new URL(win?.loaded ?? '').origin}/#clientes`);
    expect(own.preventDefault).not.toHaveBeenCalled();
  });

  it("checks for updates at the desk's own server, downloading in the background", async () => {
    await until('la primera búsqueda de actualizaciones', () => electron.updater.checkForUpdates.mock.calls.length > 0);
    expect(electron.updater.setFeedURL).toHaveBeenCalledWith({ provider: 'generic', url: `${serverUrl}/desk/updates` });
    expect(electron.updater.autoDownload).toBe(true);
    expect(electron.updater.autoInstallOnAppQuit).toBe(true);
    expect(electron.updater.on).toHaveBeenCalledWith('update-downloaded', expect.any(Function));
  });

  it('starts the service again when it ends on its own (a crash) and reopens the window on it', async () => {
    const win = electron.windows[0];
    const before = win?.loaded;
    const [first] = electron.services;
    first?.kill('SIGKILL');
    await until('la recepción de nuevo', () => electron.services.length === 2 && win?.loaded !== before);
    expect(new URL(win?.loaded ?? '').searchParams.get('llave')).not.toBe(new URL(before ?? '').searchParams.get('llave'));
    expect(electron.dialog.showErrorBox).not.toHaveBeenCalled();
    // The replica survived the kill: the service reopened it and answers.
    const link = new URL(win?.loaded ?? '');
    const opened = await fetch(link, { redirect: 'manual' });
    expect(opened.status).toBe(303);
  });

  it('a second copy started while the desk runs quits at once, without opening the replica or a window', async () => {
    electron.lock = false;
    const windows = electron.windows.length;
    vi.resetModules();
    await import('../src/main/index.ts');
    expect(electron.app.quit).toHaveBeenCalledTimes(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(electron.windows.length).toBe(windows);
    electron.app.quit.mockClear();
  });
});
