import { lazy, Suspense } from 'react';
import { Route, Routes } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';

// Each page is a chunk fetched when first opened: a first visit to the home page does not carry the
// forms, nor a visit to sign-in the home page. The one a visit starts on is asked for as soon as
// the remote mounts (React starts the import when it renders the route).
const SignInPage = lazy(() => import('./sign-in').then((m) => ({ default: m.SignInPage })));
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
