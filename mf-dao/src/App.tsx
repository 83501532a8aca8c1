import { Route, Routes } from '@app/singletons/router';
import { DaoPage } from './dao/DaoPage';
import { ProposalPage } from './dao/ProposalPage';
import { SettingsPage } from './settings/SettingsPage';

export function App() {
  return (
    <Routes>
      <Route path="/cabinet/dao" element={<DaoPage />} />
      <Route path="/cabinet/dao/:proposal" element={<ProposalPage />} />
      <Route path="/cabinet/settings" element={<SettingsPage />} />
    </Routes>
  );
}
