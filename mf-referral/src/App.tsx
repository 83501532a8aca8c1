import { Route, Routes } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';
import { Page } from '@app/ui';

function ReferralPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return <Page title={t(titleKey)} />;
}

export function App() {
  return (
    <Routes>
      {/* The path is spelled thus in the product (spec §2). */}
      <Route path="/cabinet/refferal" element={<ReferralPage titleKey="referral.title" />} />
      <Route path="/cabinet/affiliates" element={<ReferralPage titleKey="affiliates.title" />} />
    </Routes>
  );
}
