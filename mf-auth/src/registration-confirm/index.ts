export { RegistrationConfirmPage } from './RegistrationConfirmPage';
