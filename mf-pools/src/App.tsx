import { Navigate, Route, Routes, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Page } from '@app/ui';

const poolKinds = ['stable', 'coin', 'dex'] as const;

function PoolPage() {
  const { t } = useTranslation();
  const { name } = useParams();
  if (!poolKinds.includes(name as (typeof poolKinds)[number])) return <Navigate to="/cabinet/pools/stable" replace />;
  return <Page title={t('pool.title', { pool: t(`kinds.${name}`) })} />;
}

export function App() {
  return (
    <Routes>
      <Route path="/cabinet/pools" element={<Navigate to="/cabinet/pools/stable" replace />} />
      <Route path="/cabinet/pools/:name" element={<PoolPage />} />
    </Routes>
  );
}
