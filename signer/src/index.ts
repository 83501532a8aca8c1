// What other workspaces use: the API's test stack runs the real signer in-process, and the API's
// local ledger reader answers the signer's record query.
export { createSigner, databaseRecords, databaseRefills, httpRecords, Refused, type Records, type RefillRecords, type Signer } from './signer';
export { serveSigner } from './server';
export { localCaps, localColdAddress, localKeys, localTreasuryCaps, isLocalKey, LOCAL_FLOAT_INDEX, LOCAL_COLD_INDEX, LOCAL_TREASURY_INDEX, LOCAL_SOLVENCY_INDEX } from './local';
export { parseHeader } from './header';
export type { Caps, Limits, PayoutRecord, RefillRecord, SignRequest, UnsignedTx } from './policy';
