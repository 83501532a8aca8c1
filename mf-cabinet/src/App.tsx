import { Navigate, Route, Routes } from '@app/singletons/router';
import { Dashboard } from './dashboard/Dashboard';

export function App() {
  return (
    <Routes>
      <Route path="/cabinet" element={<Navigate to="/cabinet/dashboard" replace />} />
      <Route path="/cabinet/dashboard" element={<Dashboard />} />
    </Routes>
  );
}
