// The /api/v1 contract: request and response schemas shared by the server and the frontends.
// Keep this folder free of Node-only imports: browsers bundle it.
export * from './messages';
export * from './common';
export * from './auth';
export * from './profile';
export * from './catalog';
export * from './invest';
export * from './referrals';
export * from './dao';
export * from './settings';
export * from './cabinet';
export * from './solvency';
export * from './home';
export * from './routes';
export * from './operator';
