export { operatorGuard, type OperatorActor } from './auth';
