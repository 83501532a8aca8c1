import * as z from 'zod/mini';
import { messageResponseSchema } from './common';
import { sessionRoutes } from './session-routes';
import * as A from './auth';
import * as P from './profile';
import * as C from './catalog';
import * as I from './invest';
import * as R from './referrals';
import * as D from './dao';
import * as S from './settings';
import * as V from './solvency';
import { cabinetRoutes } from './cabinet-routes';
import { homeRoutes } from './home-routes';

export { apiBasePath, sessionMarkerCookie } from './session-constants';

export type RouteDef = {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  /** Needs `Authorization: Bearer <token>`. */
  auth: boolean;
  summary: string;
  body?: z.ZodMiniType;
  query?: z.ZodMiniObject;
  params?: z.ZodMiniObject;
  response: z.ZodMiniType;
};

const route = <T extends RouteDef>(r: T) => r;

/**
 * Every /api/v1 call with its schemas: the server validates and documents with them, the API
 * client parses answers with them.
 */
export const apiRoutes = {
  register: route({ method: 'POST', path: '/register', auth: false, summary: 'Sign up with e-mail and password', body: A.registerBodySchema, response: A.authResponseSchema }),
  login: route({ method: 'POST', path: '/login', auth: false, summary: 'Sign in with e-mail and password', body: A.loginBodySchema, response: A.authResponseSchema }),
  siweNonce: route({ method: 'GET', path: '/siwe/nonce', auth: false, summary: 'A single-use nonce for a Sign-In with Ethereum message', response: A.siweNonceResponseSchema }),
  loginV2: route({ method: 'POST', path: '/login-v2', auth: false, summary: 'Sign in with the wallet (EIP-4361)', body: A.loginV2BodySchema, response: A.authResponseSchema }),
  logout: route(sessionRoutes.logout),
  refresh: route(sessionRoutes.refresh),
  profile: route({ method: 'GET', path: '/profile', auth: true, summary: 'The profile of the signed-in user', response: P.profileSchema }),
  userUpdate: route({ method: 'PUT', path: '/user/update', auth: true, summary: 'Change profile fields', body: P.profileUpdateBodySchema, response: P.profileSchema }),
  sendPasswordRecovery: route({ method: 'POST', path: '/send-password-recovery', auth: false, summary: 'Mail a password recovery code (same answer for any e-mail)', body: A.loginOnlyBodySchema, response: messageResponseSchema }),
  sendApproveEmail: route({ method: 'POST', path: '/send-approve-email', auth: false, summary: 'Mail the account approval code again', body: A.loginOnlyBodySchema, response: messageResponseSchema }),
  connectMm: route({ method: 'POST', path: '/connect-mm', auth: true, summary: 'Link a wallet to the account (EIP-4361 proof)', body: A.connectMmBodySchema, response: A.connectMmResponseSchema }),
  confirmLogin: route({ method: 'POST', path: '/confirm-login', auth: false, summary: 'Confirm the e-mail with the mailed code; signs in', body: A.confirmLoginBodySchema, response: A.authResponseSchema }),
  changePasswordByCode: route({ method: 'POST', path: '/change-password-by-code', auth: false, summary: 'Set a new password with the mailed code; ends all sessions', body: A.changePasswordByCodeBodySchema, response: messageResponseSchema }),
  balance: route({ method: 'GET', path: '/balance', auth: true, summary: 'Balance history', query: I.balanceQuerySchema, response: I.balanceResponseSchema }),
  referrals: route({ method: 'GET', path: '/referrals', auth: true, summary: 'Referral overview', response: R.referralsResponseSchema }),
  referralsHarvest: route({ method: 'GET', path: '/referrals/harvest', auth: true, summary: 'Referral rewards', response: R.referralHarvestResponseSchema }),
  referralsProgress: route({ method: 'GET', path: '/referrals/progress', auth: true, summary: 'Progress to the next rank', response: R.referralProgressResponseSchema }),
  referralsWithdraw: route({ method: 'POST', path: '/referrals/withdraw', auth: true, summary: 'Claim the available referral rewards', response: messageResponseSchema }),
  referralsAffiliates: route({ method: 'GET', path: '/referrals/affiliates', auth: true, summary: 'The downline of one level, sorted and paged; masked e-mails or short wallets only', query: R.affiliatesQuerySchema, response: R.affiliatesResponseSchema }),
  referralsInvite: route({ method: 'GET', path: '/referrals/invite/:code', auth: false, summary: 'Whether an invite code is valid (rate-limited; says nothing else)', params: R.inviteParamsSchema, response: R.inviteCheckResponseSchema }),
  dashboardPool: route({ method: 'GET', path: '/dashboard/pools/:pool', auth: true, summary: 'A pool with the user position', params: I.poolParamsSchema, query: I.currencyQuerySchema, response: I.dashboardPoolResponseSchema }),
  dashboardRefreshPool: route({ method: 'POST', path: '/dashboard/refresh-pools/:pool', auth: true, summary: 'Re-read a pool', params: I.poolParamsSchema, query: I.currencyQuerySchema, response: I.dashboardPoolResponseSchema }),
  dashboardYield: route({ method: 'GET', path: '/dashboard/yield', auth: true, summary: 'Yield per pool', response: I.yieldResponseSchema }),
  faq: route({ method: 'GET', path: '/faq', auth: false, summary: 'Frequently asked questions', response: C.faqResponseSchema }),
  dashboardWithdraw: route({ method: 'POST', path: '/dashboard/withdraw', auth: true, summary: 'Request a withdrawal', body: I.withdrawBodySchema, response: I.movementResponseSchema }),
  dashboardDeposit: route({ method: 'POST', path: '/dashboard/deposit', auth: true, summary: 'Record a deposit transaction, verified on the chain; credited after N confirmations', body: I.depositBodySchema, response: I.depositResponseSchema }),
  dashboardDeposits: route({ method: 'GET', path: '/dashboard/deposits', auth: true, summary: "The user's deposits with their progress (newest first)", query: I.depositsQuerySchema, response: I.depositsResponseSchema }),
  dashboardWithdrawals: route({ method: 'GET', path: '/dashboard/withdrawals', auth: true, summary: "The user's withdrawals with their progress (newest first)", query: I.withdrawalsQuerySchema, response: I.withdrawalsResponseSchema }),
  dashboardWithdrawRules: route({ method: 'GET', path: '/dashboard/withdraw/rules', auth: true, summary: 'The smallest withdrawal and the fee per currency, and the request limits', response: I.withdrawRulesResponseSchema }),
  dashboardWithdrawQuote: route({ method: 'GET', path: '/dashboard/withdraw/quote', auth: true, summary: 'The fee and the amount received for a withdrawal, before it is requested', query: I.withdrawQuoteQuerySchema, response: I.withdrawQuoteResponseSchema }),
  solvencyList: route({ method: 'GET', path: '/solvency', auth: false, summary: 'Proof of solvency: the latest snapshots with their signed headers, declared addresses and reserves', response: V.solvencyListResponseSchema }),
  solvencySigner: route({ method: 'GET', path: '/solvency/signer', auth: false, summary: "The address that signs the solvency headers", response: V.solvencySignerResponseSchema }),
  solvencyProof: route({ method: 'GET', path: '/solvency/proof', auth: true, summary: "The user's proof of inclusion in a snapshot (the latest by default)", query: V.solvencyProofQuerySchema, response: V.solvencyProofSchema }),
  solvencyMine: route({ method: 'GET', path: '/solvency/mine', auth: true, summary: "The account's solvency nonce and the snapshots its balances are in", response: V.solvencyMineResponseSchema }),
  solvencySnapshot: route({ method: 'GET', path: '/solvency/:id', auth: false, summary: 'One solvency snapshot', params: V.solvencyIdParamsSchema, response: V.solvencySnapshotSchema }),
  currencies: route({ method: 'GET', path: '/currencies', auth: false, summary: 'Payment currencies and token addresses', response: C.currenciesResponseSchema }),
  systemRegexp: route({ method: 'GET', path: '/system/regexp', auth: false, summary: 'Validation patterns', response: C.systemRegexpResponseSchema }),
  poolAssets: route({ method: 'GET', path: '/pools/:pool/assets', auth: false, summary: 'Pool assets', params: I.poolParamsSchema, response: I.poolAssetsResponseSchema }),
  poolStrategy: route({ method: 'GET', path: '/pools/:pool/strategy', auth: false, summary: 'Pool strategy', params: I.poolParamsSchema, response: I.poolStrategyResponseSchema }),
  poolGraph: route({ method: 'GET', path: '/pools/:pool/graph', auth: false, summary: 'Pool history from its books (APY and TVL per accrued day)', params: I.poolParamsSchema, query: I.poolGraphQuerySchema, response: I.poolGraphResponseSchema }),
  ...cabinetRoutes,
  ...homeRoutes,
  daoPersonal: route({ method: 'GET', path: '/dao/personal', auth: true, summary: 'The user in the DAO', response: D.daoPersonalResponseSchema }),
  daoPools: route({ method: 'GET', path: '/dao/pools', auth: true, summary: 'DAO pools', response: D.daoPoolsResponseSchema }),
  daoValues: route({ method: 'GET', path: '/dao/values', auth: true, summary: 'DAO parameters', response: D.daoValuesResponseSchema }),
  daoRewards: route({ method: 'GET', path: '/dao/rewards', auth: true, summary: 'DAO rewards of the user', response: D.daoRewardsResponseSchema }),
  daoProposals: route({ method: 'GET', path: '/dao/proposals', auth: true, summary: 'Proposals, active first, then pending, then closed', response: D.proposalsResponseSchema }),
  daoProposal: route({ method: 'GET', path: '/dao/proposals/:id', auth: true, summary: "A proposal with its results by voting power and the user's vote", params: D.proposalParamsSchema, response: D.proposalResponseSchema }),
  daoVote: route({ method: 'POST', path: '/dao/proposals/:id/vote', auth: true, summary: "Vote: Snapshot's Vote message signed (EIP-712) by the account's linked wallet; a newer vote replaces the older", params: D.proposalParamsSchema, body: D.voteBodySchema, response: D.voteResponseSchema }),
  daoProposalVotes: route({ method: 'GET', path: '/dao/proposals/:id/votes', auth: false, summary: 'Every vote with its signed message, for anyone to verify, a page at a time', params: D.proposalParamsSchema, query: D.proposalVotesQuerySchema, response: D.proposalVotesResponseSchema }),
  settingsAvatar: route({ method: 'POST', path: '/settings/avatar', auth: true, summary: 'Upload the avatar: a JPEG, PNG or WebP image in base64, checked by its content', body: S.avatarUploadBodySchema, response: P.profileSchema }),
  settingsEmailConfirm: route({ method: 'POST', path: '/settings/email/confirm', auth: true, summary: 'Confirm a new e-mail with the code mailed to it; it becomes the login', body: S.emailConfirmBodySchema, response: P.profileSchema }),
  settingsPassword: route({ method: 'POST', path: '/settings/password', auth: true, summary: 'Change the password (the current one or a mailed code, and the new); the other sessions end and payouts are held', body: S.passwordChangeBodySchema, response: messageResponseSchema }),
  settingsSessions: route({ method: 'GET', path: '/settings/sessions', auth: true, summary: "The account's active sessions", response: S.sessionsResponseSchema }),
  settingsMail: route({ method: 'GET', path: '/settings/mail', auth: true, summary: 'Which mails about money the account wants (security notices are always sent)', response: S.mailPreferencesSchema }),
  settingsMailUpdate: route({ method: 'PUT', path: '/settings/mail', auth: true, summary: 'Switch mails about money on or off', body: S.mailPreferencesBodySchema, response: S.mailPreferencesSchema }),
  settingsEndOtherSessions: route({ method: 'POST', path: '/settings/sessions/end-others', auth: true, summary: 'Sign out every session but this one', response: messageResponseSchema }),
  settingsOwnerCode: route({ method: 'POST', path: '/settings/owner-code', auth: true, summary: "Mail a code to the account's proven e-mail: the owner's proof for a change of the e-mail, password or wallet", response: messageResponseSchema }),
  settingsWalletReplace: route({ method: 'POST', path: '/settings/wallet/replace', auth: true, summary: "Replace the linked wallet: the new wallet's EIP-4361 proof and the password or mailed code", body: S.walletReplaceBodySchema, response: S.walletChangeResponseSchema }),
  settingsWalletUnlink: route({ method: 'POST', path: '/settings/wallet/unlink', auth: true, summary: 'Unlink the wallet, with the password or mailed code', body: S.walletUnlinkBodySchema, response: S.walletChangeResponseSchema }),
} as const;

export type ApiRoutes = typeof apiRoutes;
export type ApiRouteName = keyof ApiRoutes;
