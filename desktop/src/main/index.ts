import path from 'node:path';
import { app, BrowserWindow, dialog, shell } from 'electron';
import electronUpdater from 'electron-updater';
import { createIPCHandler } from 'trpc-electron/main';
import { loadDeskConfig } from '../service/config.ts';
import { startDeskService } from '../service/index.ts';
import { deskRouter } from '../service/router.ts';
import type { DeskService } from '../service/desk-service.ts';
import { restartQuestion, startDeskUpdates } from './updates.ts';

/**
 * Electron's main process: runs the desk service (replica, sync client, staff
 * session) and serves the desk router to the window over IPC. The replica
 * lives in the user's application data unless DESK_DATA_DIR says otherwise.
 */
let desk: DeskService | null = null;

function createWindow(ipc: ReturnType<typeof createIPCHandler>): BrowserWindow {
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
  ipc.attachWindow(win);
  win.once('ready-to-show', () => win.show());
  // Links (the studio's site, maps) open in the system browser, never inside the desk window.
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  const devServer = process.env.ELECTRON_RENDERER_URL;
  // The window never leaves the desk's own page (a dropped link, a stray redirect): other sites open in the browser.
  win.webContents.on('will-navigate', (event, url) => {
    const own = !app.isPackaged && devServer ? url.startsWith(devServer) : url.startsWith('file://');
    if (own) return;
    event.preventDefault();
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
  });
  if (!app.isPackaged && devServer) void win.loadURL(devServer);
  else void win.loadFile(path.join(import.meta.dirname, '../renderer/index.html'));
  return win;
}

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
    let service: DeskService;
    try {
      service = await startDeskService(loadDeskConfig(process.env, path.join(app.getPath('userData'), 'replica')));
    } catch (error) {
      // Without its replica the desk cannot work at all: say why instead of showing an empty window.
      dialog.showErrorBox('Recepción', `No se pudo abrir la base de datos local de la recepción.\n\n${error instanceof Error ? error.message : String(error)}`);
      app.exit(1);
      return;
    }
    desk = service;
    // One IPC handler for the app's life; each window is attached to it.
    const ipc = createIPCHandler({ router: deskRouter, windows: [], createContext: async () => ({ desk: service }) });
    const win = createWindow(ipc);
    // Updates from the studio's own server (decision 019); asked only when the desk has been quiet for two minutes.
    let lastActivity = 0;
    service.onChange((event) => {
      if (event.tables.length) lastActivity = Date.now();
    });
    if (app.isPackaged) {
      startDeskUpdates({
        updater: electronUpdater.autoUpdater,
        serverUrl: () => service.serverAddress().url,
        busy: () => service.status().pending > 0 || Date.now() - lastActivity < 2 * 60_000,
        ask: async (version) => (await dialog.showMessageBox(win, restartQuestion(version))).response === 0,
        log: (message) => console.warn(message),
      });
    }
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createWindow(ipc);
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
