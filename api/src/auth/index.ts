export { createCodes, type CodePurpose, type Codes } from './codes';
export { createCounters, type Counters } from './limits';
export { loginLockout } from './lockout';
export { createPasswordHasher, type Argon2Cost, type PasswordHasher } from './passwords';
export { createSessions, type IssuedTokens, type Sessions, type SessionUser, type UserRow } from './sessions';
export { createSiwe, requestHost, type Siwe, type SiweRequestOrigin } from './siwe';
export { createAccessTokens, randomToken, sha256, type AccessClaims, type AccessTokens } from './tokens';
