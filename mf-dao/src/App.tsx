import { Route, Routes } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Page } from '@app/ui';

function DaoSection({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return <Page title={t(titleKey)} />;
}

export function App() {
  return (
    <Routes>
      <Route path="/cabinet/dao" element={<DaoSection titleKey="dao.title" />} />
      <Route path="/cabinet/settings" element={<DaoSection titleKey="settings.title" />} />
    </Routes>
  );
}
