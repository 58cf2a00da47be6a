import path from 'node:path';
import { app, BrowserWindow, dialog, shell, utilityProcess } from 'electron';
import electronUpdater from 'electron-updater';
import { deskDevServicePort, deskServiceV8Flags } from '../service/process-protocol.ts';
import { startDeskProcess, type DeskProcess, type DeskProcessChild } from './desk-process.ts';
import { restartQuestion, startDeskUpdates } from './updates.ts';

/**
 * Electron's main process: starts the desk service (replica, sync client,
 * staff session) in a utility process with its own V8 flags (decision 134)
 * and opens the window on it. The window is a browser on the service's
 * loopback address, as `desk:web` is; the replica lives in the user's
 * application data unless DESK_DATA_DIR says otherwise.
 */
let desk: DeskProcess | null = null;
const devServer = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;

/** The service's process, as the packaged desk and electron-vite's build lay it out (out/main/service-process.js). */
function forkService(): DeskProcessChild {
  return utilityProcess.fork(path.join(import.meta.dirname, 'service-process.js'), [], {
    serviceName: 'Recepción: servicio',
    execArgv: [...deskServiceV8Flags],
    stdio: 'inherit',
    env: {
      ...process.env,
      DESK_DATA_DIR: process.env.DESK_DATA_DIR ?? path.join(app.getPath('userData'), 'replica'),
      DESK_RENDERER_DIR: path.join(import.meta.dirname, '../renderer'),
      // A development run's screens come from electron-vite's server, which passes the router's calls to this port.
      DESK_PORT: String(devServer ? deskDevServicePort : 0),
    },
  }) as DeskProcessChild;
}

/** Where the window opens the desk: the service's link, or the same path on the development server. */
function pageUrl(service: DeskProcess): string {
  if (!devServer) return service.url;
  const link = new URL(service.url);
  return new URL(`${link.pathname}${link.search}`, devServer).href;
}

function createWindow(service: DeskProcess): BrowserWindow {
  const win = new BrowserWindow({
    width: 1360,
    height: 860,
    minWidth: 1024,
    minHeight: 700,
    title: 'Recepción',
    show: false,
    autoHideMenuBar: true,
    webPreferences: {
      preload: path.join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
    },
  });
  win.once('ready-to-show', () => win.show());
  // Links (the studio's site, maps) open in the system browser, never inside the desk window.
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  // The window never leaves the desk's own page (a dropped link, a stray redirect): other sites open in the browser.
  win.webContents.on('will-navigate', (event, url) => {
    const own = url.startsWith(`${desk?.origin ?? service.origin}/`) || (devServer !== undefined && url.startsWith(devServer));
    if (own) return;
    event.preventDefault();
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
  });
  void win.loadURL(pageUrl(service));
  return win;
}

/** Three unexpected ends of the service within a minute: something is wrong with this machine, not a passing fault. */
const restartLimit = { count: 3, withinMs: 60_000 };

// One desk per machine: a second copy would open the same PGlite replica, which PGlite does not allow.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const [win] = BrowserWindow.getAllWindows();
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });

  void app.whenReady().then(async () => {
    const crashes: number[] = [];
    const start = () => startDeskProcess(forkService, () => void restart());
    // The service ended on its own (a crash): start it again and reopen the window on it; the outbox is on disk.
    const restart = async () => {
      const now = Date.now();
      crashes.push(now);
      while (crashes.length && now - crashes[0]! > restartLimit.withinMs) crashes.shift();
      try {
        if (crashes.length > restartLimit.count) throw new Error('El servicio de la recepción se detuvo varias veces seguidas.');
        desk = await start();
        for (const win of BrowserWindow.getAllWindows()) void win.loadURL(pageUrl(desk));
      } catch (error) {
        stopped(error);
      }
    };
    const stopped = (error: unknown) => {
      // Without its replica the desk cannot work at all: say why instead of showing an empty window.
      dialog.showErrorBox('Recepción', `No se pudo abrir la base de datos local de la recepción.\n\n${error instanceof Error ? error.message : String(error)}`);
      app.exit(1);
    };
    try {
      desk = await start();
    } catch (error) {
      stopped(error);
      return;
    }
    const win = createWindow(desk);
    // Updates from the studio's own server (decision 019); asked only when the desk has been quiet for two minutes.
    if (app.isPackaged) {
      startDeskUpdates({
        updater: electronUpdater.autoUpdater,
        serverUrl: () => desk?.status().serverUrl ?? null,
        busy: () => {
          const status = desk?.status();
          return !status || status.pending > 0 || Date.now() - status.activeAt < 2 * 60_000;
        },
        ask: async (version) => (await dialog.showMessageBox(win, restartQuestion(version))).response === 0,
        log: (message) => console.warn(message),
      });
    }
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0 && desk) createWindow(desk);
    });
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Close the replica cleanly so PGlite flushes it; the outbox is already durable, this only saves a recovery on next start.
  let closing = false;
  app.on('before-quit', (event) => {
    if (closing || !desk) return;
    closing = true;
    event.preventDefault();
    void desk.close().finally(() => app.quit());
  });
}
