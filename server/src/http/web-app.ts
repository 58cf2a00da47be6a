import type { FastifyInstance } from 'fastify';
import { domainErrors } from '@estudio/core';
import type { Config } from '../config.ts';
import type { Db } from '../db.ts';
import { localFilesDir } from '../services/files/files.ts';
import { loadStudioSettings } from '../services/schedule/studio-settings.ts';
import { renderAppIcon } from '../services/web-app/app-icon.ts';
import { appIconFiles, webAppManifest, type AppIconFile } from '../services/web-app/web-app-manifest.ts';

/**
 * The installable portal (decision 106): /manifest.webmanifest from the
 * studio's settings, and its icons at /app/<file>, rendered once per favicon
 * and colour and kept in memory (three small PNGs).
 */
export function registerWebApp(app: FastifyInstance, deps: { db: Db; config: Config }): void {
  const icons = new Map<string, Promise<Buffer>>();
  app.get('/manifest.webmanifest', async (_req, reply) => {
    const settings = await loadStudioSettings(deps.db);
    void reply.header('cache-control', 'no-cache').type('application/manifest+json; charset=utf-8');
    return webAppManifest(settings);
  });
  app.get<{ Params: { file: string } }>('/app/:file', async (req, reply) => {
    const icon = Object.hasOwn(appIconFiles, req.params.file) ? appIconFiles[req.params.file as AppIconFile] : null;
    if (!icon) return reply.code(404).send({ code: 'route-not-found', message: domainErrors['route-not-found'].message });
    const settings = await loadStudioSettings(deps.db);
    const key = `${req.params.file}|${settings.favicon}|${settings.primary}|${settings.business_name}`;
    let png = icons.get(key);
    if (!png) {
      png = renderAppIcon(settings, { ...icon, portalDist: deps.config.PORTAL_DIST, filesDir: localFilesDir(deps.config) });
      icons.set(key, png);
      png.catch(() => icons.delete(key));
    }
    void reply.header('cache-control', 'public, max-age=3600').type('image/png');
    return reply.send(await png);
  });
}
