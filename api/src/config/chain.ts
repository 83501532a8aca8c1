import * as z from 'zod/mini';
import { SUPPORTED_CHAIN_ID } from '@app/contracts';
import { bool, int, type ConfigDoc } from './fields';

/** The chain the deposits are read from, and when a deposit counts. */
export const chainEnv = z.object({
  RPC_URL: z._default(z.url(), 'http://127.0.0.1:8545'),
  /** Blocks a deposit needs (its own included) before it is credited; default 12, or 1 on the local chain. */
  DEPOSIT_CONFIRMATIONS: z.optional(int(1, 1000)),
  /** How often the deposit job looks at pending deposits; 0 turns it off (e.g. a replica that only answers). */
  DEPOSIT_JOB_INTERVAL_MS: z._default(int(0, 3_600_000), 1000),
  /** A deposit whose transaction has vanished (reorg) this long is refused. */
  DEPOSIT_DROP_AFTER_SECONDS: z._default(int(0, 30 * 86_400), 3600),
  /** Credit deposits only in blocks the node calls finalized; default on except on the local chain, required in production. */
  DEPOSIT_USE_FINALIZED: z.optional(bool),
});
export type ChainEnv = z.output<typeof chainEnv>;

export const chainDocs: ConfigDoc[] = [
  { vars: ['RPC_URL'], meaning: 'Ethereum JSON-RPC (deposit verification)' },
  {
    vars: ['DEPOSIT_CONFIRMATIONS'],
    default: '`12` (`1` with `LOCAL_CHAIN`)',
    meaning: 'blocks a deposit needs, its own included, before it is credited; at least 12 in production',
  },
  {
    vars: ['DEPOSIT_USE_FINALIZED'],
    default: '`true` (`false` with `LOCAL_CHAIN`)',
    meaning: 'credit deposits only in blocks the node calls `finalized`; production refuses `false`',
  },
  { vars: ['DEPOSIT_JOB_INTERVAL_MS'], meaning: 'how often the deposit job looks at pending deposits; `0` turns it off in this process (a replica that only answers)' },
  { vars: ['DEPOSIT_DROP_AFTER_SECONDS'], meaning: 'a deposit whose transaction has vanished (a reorg) this long is refused' },
];

export type ChainConfig = {
  rpcUrl: string;
  /** On-chain deposits (the supported chain only: spec §9). */
  deposits: {
    chainId: typeof SUPPORTED_CHAIN_ID;
    confirmations: number;
    jobIntervalMs: number;
    dropAfterSeconds: number;
    batchSize: number;
    leaseSeconds: number;
    useFinalized: boolean;
  };
};

export function chainProblems(e: ChainEnv): string[] {
  const problems: string[] = [];
  if (e.DEPOSIT_CONFIRMATIONS !== undefined && e.DEPOSIT_CONFIRMATIONS < 12) problems.push('DEPOSIT_CONFIRMATIONS must be at least 12 in production');
  if (e.DEPOSIT_USE_FINALIZED === false) problems.push('DEPOSIT_USE_FINALIZED must not be off in production: deposits are credited only in finalized blocks');
  return problems;
}

/** `local`: LOCAL_CHAIN outside production, where the fast defaults apply. */
export function chainConfig(e: ChainEnv, local: boolean): ChainConfig {
  return {
    rpcUrl: e.RPC_URL,
    deposits: {
      chainId: SUPPORTED_CHAIN_ID,
      confirmations: e.DEPOSIT_CONFIRMATIONS ?? (local ? 1 : 12),
      jobIntervalMs: e.DEPOSIT_JOB_INTERVAL_MS,
      dropAfterSeconds: e.DEPOSIT_DROP_AFTER_SECONDS,
      batchSize: 100,
      leaseSeconds: 30,
      useFinalized: e.DEPOSIT_USE_FINALIZED ?? !local,
    },
  };
}
