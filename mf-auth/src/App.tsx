import { lazy, Suspense } from 'react';
import { Route, Routes } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';
import { SignInPage } from './sign-in';

// Sign-in is where most visits start, so it comes with the remote; the other pages are fetched
// when first opened.
const HomePage = lazy(() => import('./home').then((m) => ({ default: m.HomePage })));
const SignUpPage = lazy(() => import('./sign-up').then((m) => ({ default: m.SignUpPage })));
const PasswordRecoveryPage = lazy(() => import('./password-recovery').then((m) => ({ default: m.PasswordRecoveryPage })));
const RegistrationConfirmPage = lazy(() => import('./registration-confirm').then((m) => ({ default: m.RegistrationConfirmPage })));

export function App() {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<p className="remote-loading">{t('loading')}</p>}>
      <Routes>
        <Route path="/" element={<HomePage />} />
        <Route path="/sign-in" element={<SignInPage />} />
        <Route path="/sign-up" element={<SignUpPage />} />
        <Route path="/password-recovery" element={<PasswordRecoveryPage />} />
        <Route path="/registration-confirm" element={<RegistrationConfirmPage />} />
      </Routes>
    </Suspense>
  );
}
