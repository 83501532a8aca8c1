import { Route, Routes } from '@app/singletons/router';
import { SignInPage } from './sign-in';
import { SignUpPage } from './sign-up';
import { PasswordRecoveryPage } from './password-recovery';
import { RegistrationConfirmPage } from './registration-confirm';

export function App() {
  return (
    <Routes>
      <Route path="/sign-in" element={<SignInPage />} />
      <Route path="/sign-up" element={<SignUpPage />} />
      <Route path="/password-recovery" element={<PasswordRecoveryPage />} />
      <Route path="/registration-confirm" element={<RegistrationConfirmPage />} />
    </Routes>
  );
}
