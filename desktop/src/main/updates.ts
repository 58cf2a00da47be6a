import { texts } from '@estudio/core';

const t = texts.deskUpdates;

/** The part of electron-updater's AppUpdater the desk uses (the real `autoUpdater`, or a test's NsisUpdater/AppImageUpdater). */
export interface DeskUpdater {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  on(event: 'update-downloaded', listener: (info: { version: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface DeskUpdatesOptions {
  updater: DeskUpdater;
  /** The desk's current server (first-run screen or DESK_SERVER_URL); null before it is set. */
  serverUrl: () => string | null;
  /** True while the receptionist is in the middle of something (a check-in just now, changes not yet sent). */
  busy: () => boolean;
  /** Asks staff, in Spanish, whether to restart now; true = restart. */
  ask: (version: string) => Promise<boolean>;
  /** Between checks (default 4 hours) and between tries to ask while busy (default 1 minute). */
  intervalMs?: number;
  retryAskMs?: number;
  log?: (message: string) => void;
}

/** Where a desk finds its releases on its own server (server/src/http/desk-updates.ts). */
export const updatesFeedUrl = (serverUrl: string) => `${serverUrl}/desk/updates`;

/**
 * Updates of the installed desk (decision 019): electron-updater's generic
 * provider over the studio's own server, checked at start and every few
 * hours, downloaded in the background. When one is ready, staff are asked to
 * restart, never in the middle of a check-in: while busy the question waits.
 * Declining keeps working; the update installs when the app is closed.
 */
export function startDeskUpdates(options: DeskUpdatesOptions): { check(): Promise<void>; stop(): void } {
  const { updater, serverUrl, busy, ask } = options;
  const intervalMs = options.intervalMs ?? 4 * 60 * 60_000;
  const retryAskMs = options.retryAskMs ?? 60_000;
  const log = options.log ?? (() => {});
  updater.autoDownload = true;
  updater.autoInstallOnAppQuit = true;
  let stopped = false;
  let asked: string | null = null;
  let askTimer: NodeJS.Timeout | null = null;

  const offer = (version: string) => {
    if (stopped || asked === version) return;
    if (busy()) {
      askTimer = setTimeout(() => offer(version), retryAskMs);
      askTimer.unref?.();
      return;
    }
    asked = version;
    void ask(version).then((restart) => {
      if (restart && !stopped) updater.quitAndInstall(false, true);
    });
  };
  updater.on('update-downloaded', (info) => offer(info.version));
  // Offline or a server without releases is normal at a front desk: note it and try at the next check.
  updater.on('error', (error) => log(`actualizaciones: ${error.message}`));

  const check = async () => {
    const server = serverUrl();
    if (!server || stopped) return;
    updater.setFeedURL({ provider: 'generic', url: updatesFeedUrl(server) });
    try {
      await updater.checkForUpdates();
    } catch (error) {
      log(`actualizaciones: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const timer = setInterval(() => void check(), intervalMs);
  timer.unref?.();
  void check();
  return {
    check,
    stop: () => {
      stopped = true;
      clearInterval(timer);
      if (askTimer) clearTimeout(askTimer);
    },
  };
}

/** The Spanish question, as Electron's dialog.showMessageBox options. */
export function restartQuestion(version: string) {
  return {
    type: 'info' as const,
    title: t.readyTitle,
    message: t.readyMessage(version),
    detail: t.readyDetail,
    buttons: [t.restartNow, t.later],
    defaultId: 1,
    cancelId: 1,
  };
}
