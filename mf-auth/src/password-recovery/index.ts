export { PasswordRecoveryPage } from './PasswordRecoveryPage';
