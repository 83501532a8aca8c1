import { Route, Routes } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Page } from '@app/ui';

function AuthPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return <Page title={t(titleKey)} />;
}

export function App() {
  return (
    <Routes>
      <Route path="/sign-in" element={<AuthPage titleKey="signIn.title" />} />
      <Route path="/sign-up" element={<AuthPage titleKey="signUp.title" />} />
      <Route path="/password-recovery" element={<AuthPage titleKey="recovery.title" />} />
      <Route path="/registration-confirm" element={<AuthPage titleKey="confirm.title" />} />
    </Routes>
  );
}
