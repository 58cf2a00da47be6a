import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * Electron's main process (desktop/src/main/index.ts) with a mocked `electron`
 * (its binary cannot run here) and a mocked electron-updater's autoUpdater;
 * the desk service inside is the real one, on a temporary replica.
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
  ipcMain: { on: vi.fn(), removeListener: vi.fn() },
  contextBridge: {},
  ipcRenderer: {},
}));
vi.mock('electron-updater', () => ({ default: { autoUpdater: electron.updater } }));
// trpc-electron loads the real 'electron' from node_modules (not mockable there): its handler is recorded instead.
const ipc = vi.hoisted(() => ({ attachWindow: vi.fn(), options: null as null | { router: unknown } }));
vi.mock('trpc-electron/main', () => ({
  createIPCHandler: (options: { router: unknown }) => {
    ipc.options = options;
    return { attachWindow: ipc.attachWindow };
  },
}));

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
  delete process.env.DESK_SERVER_URL;
  rmSync(work, { recursive: true, force: true });
});

describe('the Electron main process', () => {
  it('holds the single-instance lock (one PGlite replica per machine) and focuses the open window on a second launch', () => {
    expect(electron.app.requestSingleInstanceLock).toHaveBeenCalledTimes(1);
    electron.appListeners.get('second-instance')?.();
    expect(electron.windows[0]?.focused).toBe(true);
  });

  it('opens an isolated, sandboxed window without Node, with the bundled preload and page, and serves it the desk router over IPC', async () => {
    const win = electron.windows[0];
    const { deskRouter } = await import('../src/service/router.ts');
    expect(ipc.options?.router).toBe(deskRouter);
    expect(ipc.attachWindow).toHaveBeenCalledWith(win);
    const prefs = win?.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({ contextIsolation: true, nodeIntegration: false, sandbox: true });
    expect(String(prefs.preload)).toMatch(/preload[\\/]index\.cjs$/);
    expect(win?.loaded).toMatch(/renderer[\\/]index\.html$/);
    // The replica lives in the user's application data.
    expect(electron.dialog.showErrorBox).not.toHaveBeenCalled();
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
    const own = { preventDefault: vi.fn() };
    navigate?.(own, 'file:///opt/Estudio/resources/app.asar/out/renderer/index.html#x');
    expect(own.preventDefault).not.toHaveBeenCalled();
  });

  it("checks for updates at the desk's own server, downloading in the background", async () => {
    await until('la primera búsqueda de actualizaciones', () => electron.updater.checkForUpdates.mock.calls.length > 0);
    expect(electron.updater.setFeedURL).toHaveBeenCalledWith({ provider: 'generic', url: `${serverUrl}/desk/updates` });
    expect(electron.updater.autoDownload).toBe(true);
    expect(electron.updater.autoInstallOnAppQuit).toBe(true);
    expect(electron.updater.on).toHaveBeenCalledWith('update-downloaded', expect.any(Function));
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
