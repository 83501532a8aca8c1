// The contracts between the parts of the product: the API's request and response schemas, the
// shell's bus events, the parcel props handed to remotes, the runtime manifest and the brand registry.
export * from './api';
export * from './domain';
export * from './bus';
export * from './manifest';
export * from './routing.mjs';
export { earlyProtocol, earlyCallKey } from './early-protocol.mjs';
export * from './contract';
export * from './lazy';
export * from './parcel';
export * from './brand';
export * from './client';
