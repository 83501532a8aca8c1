import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config';
import type { Db } from './db/client';
import { createAccessTokens, createCodes, createCounters, createPasswordHasher, createSessions, createSiwe } from './auth';
import { createMailer } from './mail';
import { createBackground } from './background';
import { rpcChainReader } from './chain';
import { createDepositJob, createDeposits } from './deposits';
import { createJobRunner } from './jobs';
import { createPayoutJob, createSweepJob, createTreasuryJob, httpSigner } from './payouts';
import { tablePriceSource } from './pricing';
import { createWatcher } from './watcher';
import { createUserReads } from './http/user-reads';
import { createSharedFigures } from './http/shared-figures';

/** Everything a handler needs, built once per server. */
export function createServices(config: AppConfig, db: Db, log: FastifyBaseLogger) {
  const access = createAccessTokens(config.jwtSecret, config.lifetimes.accessToken);
  const chain = rpcChainReader(config.rpcUrl);
  const mailer = createMailer(db, { smtpUrl: config.smtpUrl, from: config.mailFrom, log, ...config.mail });
  // Background mail has no request to take a brand from: the default brand, as it is when the mail goes.
  const returnNotice = { mailer, brands: config.brands, publicUrl: config.publicUrl };
  // The API holds no key that pays: the signer signs, or refuses (signer/README.md).
  const signer = config.money.signerUrl ? httpSigner(config.money.signerUrl) : null;
  const figures = createSharedFigures(config.sharedFiguresMs);
  return {
    config,
    db,
    log,
    access,
    hasher: createPasswordHasher(config.argon2),
    reads: createUserReads(config.readCacheMs, config.readCacheMaxBytes, () => figures.clear()),
    figures,
    sessions: createSessions(db, access, config.lifetimes.refreshToken, config.authCacheMs, config.authCacheMaxBytes),
    siwe: createSiwe(db, config.brands, config.lifetimes.siweNonce),
    codes: createCodes(db, config.codeHmacKey, config.lifetimes.emailCode, config.emailCodeMaxAttempts),
    counters: createCounters(db),
    background: createBackground(log),
    mailer,
    returnNotice,
    chain,
    signer,
    deposits: createDeposits(db, chain, config.deposits),
    depositJob: createDepositJob(db, chain, config.deposits, log, returnNotice),
    prices: tablePriceSource(db, config.priceSource),
    jobs: createJobRunner(db, log),
    watcher: createWatcher(
      db,
      chain,
      {
        chainId: config.deposits.chainId,
        startBlock: config.money.watcherStartBlock,
        batchBlocks: config.money.watcherBatchBlocks,
        confirmations: config.deposits.confirmations,
      },
      log,
    ),
    payouts: createPayoutJob(
      db,
      chain,
      signer,
      {
        chainId: config.deposits.chainId,
        confirmations: config.money.payoutConfirmations,
        rebroadcastSeconds: config.money.rebroadcastSeconds,
        batchSize: 50,
        cancelAfterSeconds: config.money.cancelAfterSeconds,
        recheckSeconds: config.money.recheckSeconds,
      },
      returnNotice,
      log,
    ),
    sweeps: createSweepJob(
      db,
      chain,
      signer,
      { chainId: config.deposits.chainId, confirmations: config.money.payoutConfirmations, rebroadcastSeconds: config.money.rebroadcastSeconds },
      log,
    ),
    treasury: createTreasuryJob(
      db,
      chain,
      signer,
      {
        chainId: config.deposits.chainId,
        confirmations: config.money.payoutConfirmations,
        rebroadcastSeconds: config.money.rebroadcastSeconds,
        stuckAfterSeconds: config.money.cancelAfterSeconds,
      },
      log,
    ),
  };
}
export type Services = ReturnType<typeof createServices>;
