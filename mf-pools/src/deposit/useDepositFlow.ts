// One deposit from the button to credited: the checks, the wallet's transfer, the notice with the
// hash, POST /dashboard/deposit, then confirmations on the chain and the server's credit.
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WalletState } from '@app/contracts';
import { SUPPORTED_CHAIN_ID, explorerTxUrl, type PoolKind } from '@app/web3';
import { useRemote } from '@app/ui';
import { errorMessage, isApiError, isUserRejection } from '../errors';
import { useNotify } from '../notify';
import type { PoolCoin } from '../pool/poolCoins';
import { checkDeposit, type DepositRefusal } from './checks';

/** Confirmations the server waits for before crediting (1 on the local chain; 12 in production). */
export const DEFAULT_CONFIRMATIONS = 1;
/** How often the server is asked whether a confirmed deposit is credited yet. */
export const CREDIT_POLL_MS = 1000;
/** How long to keep asking before leaving the deposit as "confirming" (the list shows it later). */
export const CREDIT_POLL_LIMIT = 60;

export type DepositStage = 'recording' | 'recordFailed' | 'confirming' | 'credited';

/** A deposit sent from this page, followed until the server credits it. */
export interface TrackedDeposit {
  hash: string;
  currency: PoolCoin['currency'];
  units: bigint;
  stage: DepositStage;
  confirmations: number;
  required: number;
  /** The user's credited amount of the coin in the pool before this deposit, as the server said. */
  baseline: bigint;
}

export type DepositBusy = null | 'wallet' | 'recording';

export interface DepositFlowDeps {
  pool: PoolKind;
  /** The user's credited amount of a coin in the pool now (to tell when this deposit is added). */
  baseline(currency: PoolCoin['currency']): bigint;
  /** Resolves true once the server counts the deposit (credited). */
  isCredited(deposit: TrackedDeposit): Promise<boolean>;
  /** Called when the deposit is recorded and again when it is credited. */
  onChanged(): void;
  sleep?(ms: number): Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function useDepositFlow({ pool, baseline, isCredited, onChanged, sleep = wait }: DepositFlowDeps) {
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

  const follow = useCallback(
    async (deposit: TrackedDeposit) => {
      try {
        for (let n = 1; n <= deposit.required; n++) {
          await walletApi.waitForConfirmations(deposit.hash, n);
          update(deposit.hash, { confirmations: n });
        }
        for (let attempt = 0; attempt < CREDIT_POLL_LIMIT; attempt++) {
          if (await isCredited(deposit)) {
            update(deposit.hash, { stage: 'credited' });
            onChanged();
            void walletApi.refreshBalances().catch(() => undefined);
            return;
          }
          await sleep(CREDIT_POLL_MS);
        }
      } catch (error) {
        // The chain or the server did not answer: the deposit stays "confirming"; the list from the
        // server shows it once credited.
        console.warn('deposit progress', error);
      }
    },
    [walletApi, update, isCredited, onChanged, sleep],
  );

  const record = useCallback(
    async (deposit: TrackedDeposit) => {
      update(deposit.hash, { stage: 'recording' });
      try {
        await api.call('dashboardDeposit', {
          body: { pool, amount: deposit.units.toString(), currency: deposit.currency, transaction: deposit.hash },
        });
      } catch (error) {
        // Spec §8: a warning with the server's message, else the error's message.
        notify({ kind: 'warning', message: (isApiError(error) ? error.message : errorMessage(error)) || t('deposit.recordFailed') });
        update(deposit.hash, { stage: 'recordFailed' });
        return false;
      }
      update(deposit.hash, { stage: 'confirming' });
      onChanged();
      void follow({ ...deposit, stage: 'confirming' });
      return true;
    },
    [api, pool, notify, t, update, onChanged, follow],
  );

  const submit = useCallback(
    async (wallet: WalletState, usd: string, coin: PoolCoin): Promise<boolean> => {
      if (inFlight.current) return false;
      const check = checkDeposit(wallet, usd, coin);
      if (!check.ok) {
        setRefusal(check);
        if (check.reason === 'notConnected') notify({ kind: 'warning', message: t('deposit.notConnected') });
        else if (check.reason === 'unsupportedNetwork') notify({ kind: 'warning', message: t('deposit.unsupportedNetwork', { id: check.chainId ?? '?' }) });
        else if (check.reason === 'notEnoughMoney') notify({ kind: 'warning', message: t('deposit.notEnoughMoney', { coin: check.coin }) });
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
          if (isUserRejection(error)) notify({ kind: 'warning', message: t('deposit.rejected') });
          else notify({ kind: 'warning', message: errorMessage(error) || t('deposit.transferFailed') });
          return false;
        }
        notify({
          kind: 'success',
          message: t('deposit.sent', { hash }),
          link: { href: explorerTxUrl(SUPPORTED_CHAIN_ID, hash), label: t('deposit.explorer') },
        });
        const deposit: TrackedDeposit = {
          hash,
          currency: coin.currency,
          units: check.units,
          stage: 'recording',
          confirmations: 0,
          required: DEFAULT_CONFIRMATIONS,
          baseline: baseline(coin.currency),
        };
        setTracked((list) => [deposit, ...list]);
        setBusy('recording');
        await record(deposit);
        return true;
      } finally {
        inFlight.current = false;
        setBusy(null);
      }
    },
    [walletApi, notify, t, record, baseline],
  );

  const retry = useCallback(
    (hash: string) => {
      const deposit = tracked.find((d) => d.hash === hash);
      if (deposit && deposit.stage === 'recordFailed') void record(deposit);
    },
    [tracked, record],
  );

  return { busy, refusal, clearRefusal: () => setRefusal(null), tracked, submit, retry };
}
