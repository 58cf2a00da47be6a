import { loadDeskConfig, type DeskConfig } from './config.ts';
import { DeskService } from './desk-service.ts';
import { syncDeps } from './sync-deps.ts';

export { deskRouter, type DeskRouter, type DeskContext } from './router.ts';
export { DeskService, type DeskEvent, type DeskSyncDeps, type ScanResult } from './desk-service.ts';
export { loadDeskConfig, defaultDataDir, type DeskConfig } from './config.ts';

/** Opens the desk service with the real sync engine (replica on disk, HTTP to the server) and resumes a stored session. */
export async function startDeskService(config: DeskConfig = loadDeskConfig()): Promise<DeskService> {
  const desk = new DeskService(config, syncDeps);
  await desk.start();
  return desk;
}
