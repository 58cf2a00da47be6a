export { createChangeFeed, createPollingChangeFeed, syncChannel, type ChangeFeed } from './change-feed.ts';
export { bindClient, cursorKnown, logPosition, pullChanges, rebaseRestoredLog, snapshotPage, startCursor } from './pull.ts';
export { pushMutations, type ApplyMutation, type SyncStaff } from './push.ts';
