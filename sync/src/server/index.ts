export { createChangeFeed, createPollingChangeFeed, portalContentChannel, syncChannel, type ChangeFeed } from './change-feed.ts';
export { bindClient, cursorKnown, logPosition, pullChanges, rebaseRestoredLog, snapshotPage, startCursor } from './pull.ts';
export { pushMutations, type ApplyMutation, type MutationOrigin, type SyncStaff } from './push.ts';
