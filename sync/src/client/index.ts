// Client half: the desk's PGlite replica, the outbox and the sync loop.
export type * from './types.ts';
export { openReplica, type ClientReplica, type OpenReplicaOptions } from './replica.ts';
export { createSyncClient, clientIdFor, type SyncClientOptions } from './sync-client.ts';
export { createHttpServerLink, toDomainError, type HttpServerLinkOptions } from './http-link.ts';
export { createDirectServerLink, type DirectServerLinkOptions } from './direct-link.ts';
