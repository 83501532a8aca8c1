export { operatorGuard, type OperatorActor } from './auth';
export { actorOf, enrolOperator, endOperatorSession, keyOperator, sessionOperator, signInOperator, totpNow, type Enrolled, type Operator } from './identity';
export { verifyAuditChain, auditEntries } from './audit-log';
export { startOperatorListener } from './listener';
export { localOperators } from './local';
export { cameThroughOperatorPort, isOperatorPath } from './listener';
