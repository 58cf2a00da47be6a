// Server half: the change log read by pull, the exactly-once push, the poke feed.
export * from './server/index.ts';
// Client half: the desk's replica, outbox and sync loop.
export * from './client/index.ts';
