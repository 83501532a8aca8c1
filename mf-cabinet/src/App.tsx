import { Navigate, Route, Routes } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
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
