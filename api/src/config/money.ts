import * as z from 'zod/mini';
import type { ChainEnv } from './chain';
import { int, type ConfigDoc } from './fields';

/** The money jobs: the watcher, the payouts and the signer, the treasury, the price source. */
export const moneyEnv = z.object({
  /** How often the money jobs (watcher, interest, payouts) run; 0 turns them off in this process. */
  MONEY_JOBS_INTERVAL_MS: z._default(int(0, 3_600_000), 1000),
  /** Blocks a payout needs (its own included) before the withdrawal is paid; default as deposits, at least 12 in production. */
  PAYOUT_CONFIRMATIONS: z.optional(int(1, 1000)),
  /** A payout not mined after this long is sent again with the same nonce and raw transaction. */
  PAYOUT_REBROADCAST_SECONDS: z._default(int(1, 86_400), 30),
  /** A signed payout not mined this long is cancelled by a zero-value self-transfer at its nonce, then returned. */
  PAYOUT_CANCEL_AFTER_SECONDS: z._default(int(1, 30 * 86_400), 1800),
  /** A returned payout's hash is looked up this long after the return; if it mines, the operator is alerted. */
  PAYOUT_RECHECK_SECONDS: z._default(int(0, 90 * 86_400), 86_400),
  /** No longer read: the treasury's key belongs to the signer (signer/README.md). Production refuses it being set. */
  TREASURY_KEY: z.optional(z.string()),
  /** No longer read: the keys that pay belong to the signer (signer/README.md). Production refuses it being set. */
  HOT_WALLET_KEYS: z.optional(z.string()),
  /** The signer's loopback address: it signs payouts (from the float) and sweeps. With LOCAL_CHAIN: http://127.0.0.1:4200. */
  SIGNER_URL: z.optional(z.url()),
  /** How often deposit addresses are swept to cold and approved refills sent; 0: only on the operator's `custody sweep`. */
  SWEEP_INTERVAL_MS: z._default(int(0, 86_400_000), 0),
  /** The local stack only: the loopback port on which this process serves the signer the ledger's payout records (PGlite lives in this process). */
  LEDGER_READER_PORT: z.optional(int(1, 65_535)),
  /** First block the chain watcher reads when it has no cursor yet; default: the head at that moment (0 on the local chain). */
  WATCHER_START_BLOCK: z.optional(int(0, 2_000_000_000)),
  /** Blocks the watcher reads per step. */
  WATCHER_BATCH_BLOCKS: z._default(int(1, 10_000), 200),
  /** Which source's rows in coin_prices give the pools' USD estimates. */
  PRICE_SOURCE: z._default(z.string().check(z.minLength(1), z.maxLength(64)), 'local'),
});
/** The payouts' confirmations default to the deposits'. */
type MoneyEnv = z.output<typeof moneyEnv> & Pick<ChainEnv, 'DEPOSIT_CONFIRMATIONS'>;

export const moneyDocs: ConfigDoc[] = [
  {
    vars: ['MONEY_JOBS_INTERVAL_MS'],
    meaning: 'interval of the watcher and payout jobs (interest: at least a minute); `0` turns them off in this process',
  },
  { vars: ['PAYOUT_CONFIRMATIONS'], default: 'as deposits', meaning: 'blocks a payout needs before the withdrawal is `paid`; at least 12 in production' },
  { vars: ['PAYOUT_REBROADCAST_SECONDS'], meaning: 'a payout not mined this long is sent again (same nonce, same bytes)' },
  {
    vars: ['PAYOUT_CANCEL_AFTER_SECONDS'],
    meaning: 'a signed payout not mined this long is cancelled by a zero-value self-transfer at its nonce, then returned',
  },
  { vars: ['PAYOUT_RECHECK_SECONDS'], meaning: 'a returned payout\'s hash is looked up this long; if it mines, the operator is alerted' },
  {
    vars: ['SIGNER_URL'],
    default: 'none; with `LOCAL_CHAIN` `http://127.0.0.1:4200`',
    meaning:
      'the signer process (signer/README.md), which alone holds the float\'s, the deposit addresses\', the treasury\'s and the solvency keys: payouts, sweeps, the treasury\'s funding transfers and the solvency headers are signed there or refused; without it a payout waits, nothing is funded and no snapshot is taken. The API holds no key: production refuses `HOT_WALLET_KEYS`, `TREASURY_KEY` and `SOLVENCY_KEY`',
  },
  {
    vars: ['TREASURY_KEY'],
    default: 'none',
    meaning: 'no longer read: the treasury (yield) address\'s key is the signer\'s (`treasury` in its keys file, issue 26); production refuses it set, so an old deployment\'s key is moved, not left beside the API',
  },
  {
    vars: ['HOT_WALLET_KEYS'],
    default: 'none',
    meaning: 'no longer read: the keys that pay and sweep are the signer\'s (issue 26); production refuses it set, so an old deployment\'s keys are moved, not left beside the API',
  },
  {
    vars: ['SWEEP_INTERVAL_MS'],
    meaning: 'how often each deposit address\'s booked funds are swept to the cold address and approved float refills sent (signed by the signer); `0`: only on the operator\'s `custody sweep`',
  },
  {
    vars: ['LEDGER_READER_PORT'],
    default: 'none',
    meaning: 'local stack only: a loopback port where the API serves the signer the payout records of its in-process PGlite (in production the signer reads PostgreSQL through a read-only role); production refuses it',
  },
  { vars: ['WATCHER_START_BLOCK'], default: '`0` with `LOCAL_CHAIN`, else the head', meaning: 'first block the chain watcher reads when it has no cursor' },
  { vars: ['WATCHER_BATCH_BLOCKS'], meaning: 'blocks per watcher step' },
  { vars: ['PRICE_SOURCE'], meaning: 'which source\'s rows in `coin_prices` give the pools\' USD estimates' },
];

export type MoneyConfig = {
  /** Watcher, interest and payouts. */
  money: {
    jobsIntervalMs: number;
    payoutConfirmations: number;
    rebroadcastSeconds: number;
    /** The signer's address; null until configured (payouts then wait). */
    signerUrl: string | null;
    /** The local stack's ledger reader for the signer; null elsewhere. */
    ledgerReaderPort: number | null;
    sweepIntervalMs: number;
    cancelAfterSeconds: number;
    recheckSeconds: number;
    watcherStartBlock: number | null;
    watcherBatchBlocks: number;
    /** On the local chain outside production `accrue --until` may name a future day. */
    allowFutureAccrual: boolean;
  };
  priceSource: string;
};

export function moneyProblems(e: MoneyEnv): string[] {
  const problems: string[] = [];
  const payoutFloor = e.PAYOUT_CONFIRMATIONS ?? e.DEPOSIT_CONFIRMATIONS;
  if (payoutFloor !== undefined && payoutFloor < 12) problems.push('PAYOUT_CONFIRMATIONS must be at least 12 in production');
  if (e.HOT_WALLET_KEYS) problems.push('HOT_WALLET_KEYS must not be set: the API holds no payout key, the signer does (SIGNER_URL)');
  if (e.LEDGER_READER_PORT !== undefined) problems.push('LEDGER_READER_PORT is for the local stack only: in production the signer reads PostgreSQL through a read-only role');
  if (e.TREASURY_KEY) problems.push('TREASURY_KEY must not be set: the API holds no key, the signer holds the treasury\'s (SIGNER_URL)');
  return problems;
}

/** `local`: LOCAL_CHAIN outside production: the test keys, confirmations of 1, the chain read from block 0. */
export function moneyConfig(e: MoneyEnv, local: boolean): MoneyConfig {
  return {
    money: {
      jobsIntervalMs: e.MONEY_JOBS_INTERVAL_MS,
      payoutConfirmations: e.PAYOUT_CONFIRMATIONS ?? e.DEPOSIT_CONFIRMATIONS ?? (local ? 1 : 12),
      rebroadcastSeconds: e.PAYOUT_REBROADCAST_SECONDS,
      signerUrl: e.SIGNER_URL ?? (local ? 'http://127.0.0.1:4200' : null),
      ledgerReaderPort: e.LEDGER_READER_PORT ?? null,
      sweepIntervalMs: e.SWEEP_INTERVAL_MS,
      cancelAfterSeconds: e.PAYOUT_CANCEL_AFTER_SECONDS,
      recheckSeconds: e.PAYOUT_RECHECK_SECONDS,
      watcherStartBlock: e.WATCHER_START_BLOCK ?? (local ? 0 : null),
      watcherBatchBlocks: e.WATCHER_BATCH_BLOCKS,
      allowFutureAccrual: local,
    },
    priceSource: e.PRICE_SOURCE,
  };
}
