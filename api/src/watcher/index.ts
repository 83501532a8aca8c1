export { createWatcher, type Watcher, type WatchResult } from './watcher';
export { assignUnclaimed, claimMessage, listUnclaimed, markReported } from './unclaimed';
