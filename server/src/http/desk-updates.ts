import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { domainErrors } from '@estudio/core';

/** Where the installed desks look for updates (electron-updater's generic provider; electron-builder.yml `publish.url`). */
export const deskUpdatesPrefix = '/desk/updates';

/** Content types of what electron-builder writes into a release folder. */
const contentTypes: Record<string, string> = {
  '.yml': 'text/yaml; charset=utf-8',
  '.yaml': 'text/yaml; charset=utf-8',
  '.exe': 'application/vnd.microsoft.portable-executable',
  '.blockmap': 'application/octet-stream',
  '.appimage': 'application/octet-stream',
  '.deb': 'application/vnd.debian.binary-package',
  '.dmg': 'application/x-apple-diskimage',
  '.zip': 'application/zip',
};

const notFound = { code: 'route-not-found', message: domainErrors['route-not-found'].message };

/**
 * The desk's releases, served from DESK_RELEASES_DIR at /desk/updates/<file>
 * (decision 019): the folder electron-builder fills (latest.yml,
 * latest-mac.yml, latest-linux.yml, the installers and their blockmaps).
 * Flat files only, no listing, no dotfiles; @fastify/static resolves every
 * path inside the folder (no traversal) and answers ranges, which the
 * updater's differential download asks for. The channel files are never
 * cached (a desk must see a new version at once); a missing file is a JSON
 * 404, never the portal's page.
 */
export async function registerDeskUpdates(app: FastifyInstance, releasesDir: string): Promise<void> {
  await app.register(
    async (scope) => {
      scope.setNotFoundHandler((_req, reply) => reply.code(404).type('application/json; charset=utf-8').send(notFound));
      if (!existsSync(releasesDir)) return;
      await scope.register(fastifyStatic, {
        root: releasesDir,
        prefix: '/',
        decorateReply: false,
        index: false,
        list: false,
        dotfiles: 'deny',
        redirect: false,
        wildcard: true,
        setHeaders(reply, filePath) {
          const lower = filePath.toLowerCase();
          const ext = lower.slice(lower.lastIndexOf('.'));
          const type = contentTypes[ext];
          if (type) void reply.header('content-type', type);
          void reply.header('cache-control', ext === '.yml' || ext === '.yaml' ? 'no-cache' : 'public, max-age=3600');
        },
      });
    },
    { prefix: deskUpdatesPrefix },
  );
}
