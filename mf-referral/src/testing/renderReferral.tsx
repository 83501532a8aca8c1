import type { ReactElement } from 'react';
import { renderRemote, type RemoteSetup, type RenderedRemote } from '@app/ui/testing';
import type { AffiliatesResponse, ReferralHarvestResponse, ReferralProgressResponse, ReferralsResponse } from '@app/contracts';
import en from '../i18n/en.json';
import ru from '../i18n/ru.json';

export { deferred, shellApiError } from '@app/ui/testing';

/** A part of this remote as the shell mounts it, for a signed-in user. */
export function renderReferral(ui: ReactElement, setup: Omit<RemoteSetup, 'namespace' | 'strings'>): RenderedRemote {
  return renderRemote(ui, {
    namespace: 'referral',
    strings: { en, ru },
    session: { status: 'authenticated', user: { id: 'u1', login: 'ann@example.com', role: 'user' } },
    ...setup,
    api: { cabinetRevision: async () => ({ revision: 'r1' }), ...setup.api },
  });
}

export const overview: ReferralsResponse = {
  referralId: 'AbC_12',
  referralLink: 'http://localhost/sign-up?invite=AbC_12',
  currency: 'USDT',
  levels: [
    { level: 1, rewardBps: 1000, bonusBps: 100, members: 2 },
    { level: 2, rewardBps: 500, bonusBps: 100, members: 1 },
    { level: 3, rewardBps: 300, bonusBps: 100, members: 0 },
  ],
  members: 3,
  capitalAttractedUsd: '12500.50',
  bonusesUsd: '3.21',
  rank: 2,
  ranks: [
    { rank: 1, title: 'Starter', capitalUsd: '0', bonusBps: 0 },
    { rank: 2, title: 'Bronze', capitalUsd: '10000', bonusBps: 100 },
    { rank: 3, title: 'Silver', capitalUsd: '50000', bonusBps: 200 },
  ],
  maxTotalBps: 1800,
};

export const progress: ReferralProgressResponse = { rank: 2, nextRank: 3, capitalUsd: '12500.50', nextRankCapitalUsd: '50000.00', progressBps: 625 };

export const harvest = (over: Partial<ReferralHarvestResponse> = {}): ReferralHarvestResponse => ({
  currency: 'USDT',
  decimals: 6,
  allTime: '4500000',
  earned: '3210000',
  availableToClaim: '3210000',
  inPayment: '0',
  alreadyPaid: '1290000',
  vesting: '150000',
  vestingDays: 30,
  others: [],
  claimInProgress: false,
  claim: null,
  ...over,
});

export const affiliates = (over: Partial<AffiliatesResponse> = {}): AffiliatesResponse => ({
  level: 1,
  page: 1,
  size: 20,
  total: 2,
  sort: 'joined_desc',
  currency: 'USDT',
  decimals: 6,
  items: [
    { member: 'b***@example.com', joinedAt: '2026-11-20T10:00:00.000Z', capitalBand: { fromUsd: '100', toUsd: '1000' }, rewards: '123456' },
    { member: '0x1234…abcdef', joinedAt: '2026-11-19T10:00:00.000Z', capitalBand: { fromUsd: '10000', toUsd: '100000' }, rewards: '0' },
  ],
  ...over,
});
