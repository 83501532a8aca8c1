import { Route, Routes } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';
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
