import { useEffect } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { LIVE_POLL_MS, Page, useCabinetRevision, useRemote, useServerData } from '@app/ui';
import { Panel } from '../Panel';
import { both } from './combine';
import { Invite } from './Invite';
import { Network } from './Network';
import { Ranks } from './Ranks';
import { ClaimButton, LatestClaim, Rewards } from './Rewards';

/** /cabinet/refferal: the invitation, the network by level, the ranks and the rewards with their claim. */
export function ReferralPage() {
  const { t } = useTranslation();
  const { api } = useRemote();
  const overview = useServerData((signal) => api.call('referrals', { signal }), [api]);
  const progress = useServerData((signal) => api.call('referralsProgress', { signal }), [api]);
  const harvest = useServerData((signal) => api.call('referralsHarvest', { signal }), [api]);
  useCabinetRevision(api, () => {
    overview.reload();
    progress.reload();
    harvest.reload();
  });
  // A payment in progress is followed until it is paid.
  const paying = harvest.state.status === 'ready' && harvest.state.data.claimInProgress;
  const reloadHarvest = harvest.reload;
  useEffect(() => {
    if (!paying) return;
    const timer = setInterval(reloadHarvest, LIVE_POLL_MS);
    return () => clearInterval(timer);
  }, [paying, reloadHarvest]);

  return (
    <Page title={t('referral.title')}>
      <p className="referral-promise">{t('referral.promise')}</p>
      <Panel id="invite" title={t('invite.title')} state={overview.state} onRetry={overview.reload}>
        {(o) => <Invite referralId={o.referralId} referralLink={o.referralLink} />}
      </Panel>
      <Panel id="network" title={t('network.title')} state={overview.state} onRetry={overview.reload}>
        {(o) => <Network overview={o} />}
      </Panel>
      <Panel id="rank" title={t('ranks.title')} state={both(overview.state, progress.state)} onRetry={() => (overview.reload(), progress.reload())}>
        {([o, p]) => <Ranks ranks={o.ranks} progress={p} />}
      </Panel>
      <Panel id="rewards" title={t('rewards.title')} state={harvest.state} onRetry={harvest.reload}>
        {(h) => (
          <>
            <Rewards harvest={h} />
            <ClaimButton harvest={h} onClaimed={harvest.reload} />
            <LatestClaim harvest={h} />
          </>
        )}
      </Panel>
    </Page>
  );
}
