import { exposeElectronTRPC } from 'trpc-electron/main';

/**
 * The renderer's only door to the main process: trpc-electron's bridge,
 * which carries the desk router's calls over one IPC channel. Nothing else
 * of Node or Electron is exposed.
 */
exposeElectronTRPC();
