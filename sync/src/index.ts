// Server half: the change log read by pull, the exactly-once push, the poke feed.
export * from './server/index.ts';
