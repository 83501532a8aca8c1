// The drizzle schema, one file per capability; everything imports the tables from here (and
// drizzle.config.ts points here), so a table's file can move without touching its readers.
// Changing a table still needs a hand-written migration in api/drizzle.
export * from './auth';
export * from './mail';
export * from './settings';
export * from './catalog';
export * from './pricing';
export * from './deposits';
export * from './payouts';
export * from './interest';
export * from './referral';
export * from './dao';
export * from './ledger';
export * from './operator';
export * from './watcher';
export * from './solvency';
