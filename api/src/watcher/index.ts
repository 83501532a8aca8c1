export { createWatcher, type Watcher, type WatchResult } from './watcher';
export { assignUnclaimed, listUnclaimed } from './unclaimed';
