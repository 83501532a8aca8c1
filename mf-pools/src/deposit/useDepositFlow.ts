// One deposit from the button to credited: the checks, the wallet's transfer, the notice with the
// hash, POST /dashboard/deposit, then confirmations on the chain and the server's credit.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { type DepositStatus, type WalletState, SUPPORTED_CHAIN_ID, type PoolName } from '@app/contracts';
import { explorerTxUrl, isCurrency } from '@app/web3';
import { useNotify, useRemote } from '@app/ui';
import { errorMessage, isApiError, isUserRejection, walletFailure } from '../errors';
import type { PoolCoin } from '../pool/poolCoins';
import { fetchDepositStatus } from '../pool/server';
import { checkDeposit, type DepositRefusal } from './checks';
import { forgetUnrecorded, loadUnrecorded, rememberUnrecorded } from './unrecorded';

/** How often the server is asked about a deposit it has not credited yet. */
export const STATUS_POLL_MS = 1500;
/** How many times to ask before leaving the deposit to the list (which shows it when credited). */
export const STATUS_POLL_LIMIT = 400;
/** The server refuses a transaction it cannot see in a block yet: wait for one, then ask again. */
const NOT_YET_ON_CHAIN = new Set(['TX_NOT_MINED', 'TX_NOT_FOUND']);
const RECORD_ATTEMPTS = 3;

export type DepositStage = 'recording' | 'recordFailed' | 'confirming' | 'credited' | 'refused';

/** A deposit sent from this page, followed until the server credits it. */
export interface TrackedDeposit {
  hash: string;
  currency: PoolCoin['currency'];
  units: bigint;
  stage: DepositStage;
  confirmations: number;
  /** Confirmations the server waits for before crediting (1 locally, 12 in production). */
  required: number;
  /** Why the server did not credit it (its message). */
  reason?: string;
}

export type DepositBusy = null | 'wallet' | 'recording';

export interface DepositFlowDeps {
  pool: PoolName;
  /** Called when a deposit is recorded and again when it is credited or refused. */
  onChanged(): void;
  sleep?(ms: number): Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const errorCode = (error: unknown) => (typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined);
/** A refusal the server will give again (anything but no answer, a fault, or a transaction not seen yet). */
const isFinalRefusal = (error: unknown) =>
  isApiError(error) && error.status >= 400 && error.status < 500 && !NOT_YET_ON_CHAIN.has(String(errorCode(error)));

export function useDepositFlow({ pool, onChanged, sleep = wait }: DepositFlowDeps) {
  const { t } = useTranslation();
  const { api, wallet: walletApi } = useRemote();
  const notify = useNotify();
  const [busy, setBusy] = useState<DepositBusy>(null);
  const [refusal, setRefusal] = useState<DepositRefusal | null>(null);
  const [tracked, setTracked] = useState<TrackedDeposit[]>([]);
  // A ref, not state: two clicks in one frame must not both pass.
  const inFlight = useRef(false);

  const update = useCallback((hash: string, patch: Partial<TrackedDeposit>) => {
    setTracked((list) => list.map((d) => (d.hash === hash ? { ...d, ...patch } : d)));
  }, []);

  /** Applies the server's view; true when the deposit reached its end (credited or refused). */
  const apply = useCallback(
    (hash: string, status: DepositStatus | null, chainConfirmations: number): boolean => {
      if (!status) return false;
      const confirmations = Math.min(Math.max(status.confirmations, chainConfirmations), status.confirmationsRequired);
      if (status.status === 'pending') {
        update(hash, { stage: 'confirming', confirmations, required: status.confirmationsRequired });
        return false;
      }
      update(hash, {
        stage: status.status,
        confirmations: status.status === 'credited' ? status.confirmationsRequired : confirmations,
        required: status.confirmationsRequired,
        reason: status.reason ?? undefined,
      });
      onChanged();
      if (status.status === 'credited') void walletApi.refreshBalances().catch(() => undefined);
      return true;
    },
    [update, onChanged, walletApi],
  );

  /** Confirmations from the chain (through the wallet) and the credit from the server. */
  const follow = useCallback(
    async (hash: string, start: DepositStatus) => {
      let chain = start.confirmations;
      let status: DepositStatus | null = start;
      try {
        for (let attempt = 0; attempt < STATUS_POLL_LIMIT; attempt++) {
          if (apply(hash, status, chain)) return;
          const required = status?.confirmationsRequired ?? start.confirmationsRequired;
          if (chain < required) {
            await walletApi.waitForConfirmations(hash, chain + 1);
            chain += 1;
            if (status) apply(hash, { ...status, confirmations: Math.max(status.confirmations, chain) }, chain);
          } else {
            await sleep(STATUS_POLL_MS);
          }
          status = (await fetchDepositStatus(api, hash)) ?? status;
        }
      } catch (error) {
        // The chain or the server did not answer: the deposit stays "confirming"; the list from the
        // server shows where it is after a reload.
        console.warn('deposit progress', error);
      }
    },
    [api, walletApi, apply, sleep],
  );

  const record = useCallback(
    async (deposit: TrackedDeposit) => {
      update(deposit.hash, { stage: 'recording' });
      const body = { pool, amount: deposit.units.toString(), currency: deposit.currency, transaction: deposit.hash, chainId: SUPPORTED_CHAIN_ID };
      for (let attempt = 1; ; attempt++) {
        try {
          const answer = await api.call('dashboardDeposit', { body });
          forgetUnrecorded(deposit.hash);
          onChanged();
          void follow(deposit.hash, answer.deposit);
          return true;
        } catch (error) {
          if (attempt < RECORD_ATTEMPTS && NOT_YET_ON_CHAIN.has(String(errorCode(error)))) {
            // Sent but not in a block yet: the server reads the chain, so wait for the block.
            await walletApi.waitForConfirmations(deposit.hash, 1).catch(() => sleep(STATUS_POLL_MS));
            continue;
          }
          if (isFinalRefusal(error)) forgetUnrecorded(deposit.hash);
          // Spec §8: a warning with the server's message, else the error's message.
          notify({ kind: 'warning', message: (isApiError(error) ? error.message : errorMessage(error)) || t('deposit.recordFailed') });
          update(deposit.hash, { stage: 'recordFailed' });
          return false;
        }
      }
    },
    [api, pool, notify, t, update, onChanged, follow, walletApi, sleep],
  );

  const submit = useCallback(
    async (wallet: WalletState, usd: string, coin: PoolCoin, exact: bigint | null = null): Promise<boolean> => {
      if (inFlight.current) return false;
      const check = checkDeposit(wallet, usd, coin, exact);
      if (!check.ok) {
        setRefusal(check);
        if (check.reason === 'notConnected') notify({ kind: 'warning', message: t('deposit.notConnected') });
        else if (check.reason === 'unsupportedNetwork') notify({ kind: 'warning', message: t('deposit.unsupportedNetwork', { id: check.chainId ?? '?' }) });
        else if (check.reason === 'notEnoughMoney') notify({ kind: 'warning', message: t('deposit.notEnoughMoney', { coin: check.coin }) });
        else if (check.reason === 'noGas') notify({ kind: 'warning', message: t('deposit.noGas') });
        return false;
      }
      setRefusal(null);
      inFlight.current = true;
      setBusy('wallet');
      try {
        let hash: string;
        try {
          ({ hash } = await walletApi.sendTransfer({ currency: coin.currency, to: coin.address, units: check.units.toString() }));
        } catch (error) {
          // In the product's words: the wallet's or node's own text is never shown.
          const failure = walletFailure(error, isUserRejection);
          notify({ kind: 'warning', message: t(`deposit.${failure}`) });
          setRefusal({ reason: 'walletFailed', failure });
          return false;
        }
        notify({
          kind: 'success',
          message: t('deposit.sent', { hash }),
          link: { href: explorerTxUrl(SUPPORTED_CHAIN_ID, hash), label: t('deposit.explorer') },
        });
        rememberUnrecorded({ pool, hash, currency: coin.currency, units: check.units.toString() });
        const deposit: TrackedDeposit = { hash, currency: coin.currency, units: check.units, stage: 'recording', confirmations: 0, required: 1 };
        setTracked((list) => [deposit, ...list]);
        setBusy('recording');
        await record(deposit);
        return true;
      } finally {
        inFlight.current = false;
        setBusy(null);
      }
    },
    [walletApi, notify, t, record, pool],
  );

  // Transactions sent from an earlier visit that the server never recorded: record them now.
  const resumed = useRef(false);
  useEffect(() => {
    if (resumed.current) return;
    resumed.current = true;
    const earlier = loadUnrecorded().filter((d) => d.pool === pool && isCurrency(d.currency));
    if (!earlier.length) return;
    const deposits = earlier.map((d): TrackedDeposit => ({
      hash: d.hash,
      currency: d.currency as PoolCoin['currency'],
      units: BigInt(d.units),
      stage: 'recording',
      confirmations: 0,
      required: 1,
    }));
    setTracked((list) => [...deposits, ...list]);
    for (const deposit of deposits) void record(deposit);
  }, [pool, record]);

  const retry = useCallback(
    (hash: string) => {
      const deposit = tracked.find((d) => d.hash === hash);
      if (deposit && deposit.stage === 'recordFailed') void record(deposit);
    },
    [tracked, record],
  );

  return { busy, refusal, clearRefusal: () => setRefusal(null), tracked, submit, retry };
}
