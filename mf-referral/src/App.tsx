import { Route, Routes } from '@app/singletons/router';
import { ReferralPage } from './referral/ReferralPage';
import { AffiliatesPage } from './affiliates/AffiliatesPage';

export function App() {
  return (
    <Routes>
      {/* The path is spelled thus in the product (spec §2). */}
      <Route path="/cabinet/refferal" element={<ReferralPage />} />
      <Route path="/cabinet/affiliates" element={<AffiliatesPage />} />
    </Routes>
  );
}
