// Types of early-protocol.mjs (JavaScript so that the shell's server and build import it as it is).
export const apiBasePath: '/api/v1';
export const sessionMarkerCookie: 'signed_in';
export const earlyProtocol: Readonly<{ element: 'early-calls'; global: '__earlyCalls'; refreshLock: 'session-refresh'; keySeparator: ' ' }>;
export function earlyCallKey(method: string, url: string, language: string | undefined): string;
