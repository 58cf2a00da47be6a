// The client modules directly, not the package index: the index also exports the server half, which the desk must not bundle.
import { createHttpServerLink } from '@estudio/sync/client/http-link';
import { openReplica } from '@estudio/sync/client/replica';
import { clientIdFor, createSyncClient } from '@estudio/sync/client/sync-client';
import type { DeskSyncDeps } from './desk-service.ts';

/** The real sync engine: a PGlite replica on disk and tRPC over HTTP (poke over SSE) to the studio's server. */
export const syncDeps: DeskSyncDeps = {
  openReplica: (dataDir) => openReplica({ dataDir }),
  createLink: ({ serverUrl, getToken }) => createHttpServerLink({ url: `${serverUrl}/trpc`, getToken }),
  createSyncClient: ({ replica, link, clientId }) => createSyncClient({ replica, link, clientId }),
  clientIdFor,
};
