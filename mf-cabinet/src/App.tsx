import { Navigate, Route, Routes } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';
import { Page } from '@app/ui';

function Dashboard() {
  const { t } = useTranslation();
  return <Page title={t('dashboard.title')} />;
}

export function App() {
  return (
    <Routes>
      <Route path="/cabinet" element={<Navigate to="/cabinet/dashboard" replace />} />
      <Route path="/cabinet/dashboard" element={<Dashboard />} />
    </Routes>
  );
}
