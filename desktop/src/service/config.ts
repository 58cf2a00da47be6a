import os from 'node:os';
import path from 'node:path';

export interface DeskConfig {
  /** Where the PGlite replica lives. */
  dataDir: string;
  /** The studio's server (its /trpc endpoint is under it). */
  serverUrl: string;
}

/** Per-user application data, as Electron's app.getPath('userData') would choose on each platform. */
export function defaultDataDir(): string {
  const home = os.homedir();
  if (!home) return path.resolve('desk-data');
  if (process.platform === 'win32') return path.join(process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Estudio Recepcion', 'replica');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Estudio Recepcion', 'replica');
  return path.join(process.env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'estudio-recepcion', 'replica');
}

/** DESK_DATA_DIR and DESK_SERVER_URL, with the defaults of a desk next to a local server. */
export function loadDeskConfig(env: NodeJS.ProcessEnv = process.env, fallbackDataDir = defaultDataDir()): DeskConfig {
  return {
    dataDir: path.resolve(env.DESK_DATA_DIR ?? fallbackDataDir),
    serverUrl: (env.DESK_SERVER_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, ''),
  };
}
