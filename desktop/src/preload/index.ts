import { contextBridge, webUtils } from 'electron';
import { exposeElectronTRPC } from 'trpc-electron/main';

/**
 * The renderer's only doors to the main process: trpc-electron's bridge,
 * which carries the desk router's calls over one IPC channel, and the path of
 * a file the person picked or dropped (decision 046: a video is streamed from
 * the disk by the main process, not read into the page). Nothing else of Node
 * or Electron is exposed.
 */
exposeElectronTRPC();
contextBridge.exposeInMainWorld('deskFiles', { pathForFile: (file: File) => webUtils.getPathForFile(file) });
