import { contextBridge, webUtils } from 'electron';

/**
 * The renderer's only door to Electron: the path of a file the person picked
 * or dropped (decision 046: a video is streamed from the disk by the desk
 * service, not read into the page). The desk router itself is reached over
 * the service's loopback address (decision 134); nothing else of Node or
 * Electron is exposed.
 */
contextBridge.exposeInMainWorld('deskFiles', { pathForFile: (file: File) => webUtils.getPathForFile(file) });
