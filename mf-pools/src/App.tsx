import { Navigate, Route, Routes, useParams } from '@app/singletons/router';
import { isPoolName } from '@app/contracts';
import { PoolsOverview } from './insight';
import { PoolPage } from './pool';
import { SolvencyPage } from './solvency/SolvencyPage';

function PoolRoute() {
  const { name } = useParams();
  if (!isPoolName(name)) return <Navigate to="/cabinet/pools" replace />;
  // A new pool is a new page: its forms and deposits in progress start afresh.
  return <PoolPage key={name} pool={name} />;
}

export function App() {
  return (
    <Routes>
      <Route path="/cabinet/pools" element={<PoolsOverview />} />
      <Route path="/cabinet/pools/:name" element={<PoolRoute />} />
      <Route path="/solvency" element={<SolvencyPage />} />
    </Routes>
  );
}
