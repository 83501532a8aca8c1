import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { type WalletState, SUPPORTED_CHAIN_ID } from '@app/contracts';
import { USD_INPUT_PREFIX, formatUnits, parseUnits, unitsToUsd } from '@app/web3';
import { parseCoinInput } from '../withdraw/parseCoinInput';
import { AMOUNT_SLOT, WithAmount, useObservable, useRemote } from '@app/ui';
import { isDepositable, type PoolCoin } from '../pool/poolCoins';
import { ETH_GAS_RESERVE, depositDecimals, depositUnits, formatUsd, maxUsd, parseUsdInput, usdInputText } from './amounts';
import { CoinFigure } from './CoinFigure';
import { walletBalance } from './checks';
import type { DepositBusy, useDepositFlow } from './useDepositFlow';

const disconnected: WalletState = { connected: false, chainId: null, account: null, balances: {} };

interface Props {
  coins: readonly PoolCoin[];
  flow: ReturnType<typeof useDepositFlow>;
}

const busyLabel: Record<Exclude<DepositBusy, null>, string> = { wallet: 'deposit.busyWallet', recording: 'deposit.busyRecording' };

/** The deposit tab: a coin, a dollar amount, what it becomes in the coin, and the send. */
export function DepositForm({ coins, flow }: Props) {
  const { t, i18n } = useTranslation();
  const { bus } = useRemote();
  const wallet = useObservable(bus.wallet$, disconnected);
  const [currency, setCurrency] = useState(coins[0]!.currency);
  const [usd, setUsd] = useState('');
  /** The coin amount as typed, when the user gives the amount in coins (it then drives the dollars). */
  const [coinText, setCoinText] = useState<string | null>(null);
  const coin = coins.find((c) => c.currency === currency) ?? coins[0]!;
  const decimals = depositDecimals(coin.currency);
  const exact = coinText !== null && /[1-9]/.test(coinText) ? parseUnits(coinText, decimals, 'down') : coinText !== null ? 0n : null;
  const { refusal, clearRefusal } = flow;

  // A coin list that changed (the pool loaded) keeps the choice when it still exists.
  useEffect(() => {
    if (!coins.some((c) => c.currency === currency)) setCurrency(coins[0]!.currency);
  }, [coins, currency]);
  // A warning about the wallet goes once the wallet is fixed.
  useEffect(() => clearRefusal(), [wallet.connected, wallet.chainId]); // eslint-disable-line react-hooks/exhaustive-deps

  const units = useMemo(() => (exact !== null ? (exact > 0n ? exact : null) : isDepositable(coin) ? depositUnits(usd, coin) : null), [exact, usd, coin]);
  // The dollars a typed coin amount is worth, to the spec's precision (the dollar field shows them).
  const usdShown = exact !== null ? (exact > 0n && /[1-9]/.test(coin.toFiat) ? unitsToUsd(exact, coin.toFiat, decimals) : '') : usd;
  const onSupportedChain = wallet.connected && wallet.chainId === SUPPORTED_CHAIN_ID;
  const balance = walletBalance(wallet, coin.currency);
  // Like a vault page: an amount over the balance is said beside the field as it is typed.
  const overBalance = onSupportedChain && units !== null && units > balance;

  // "Not enough money" follows the wallet's balance as it is now, not the one at the last press: a
  // balance that arrives (or a top-up) after a refused press takes the error away.
  let amountError = '';
  if (refusal?.reason === 'amountRequired') amountError = t('deposit.required');
  else if (overBalance) amountError = t('deposit.notEnoughMoney', { coin: coin.currency });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (await flow.submit(wallet, usdShown, coin, exact)) {
      setUsd('');
      setCoinText(null);
    }
  };

  // On another network the coin's balance there says nothing of the money on Ethereum: no "0" that reads as funds gone.
  const balanceText = !wallet.connected
    ? t('deposit.noWallet')
    : !onSupportedChain
      ? t('deposit.balanceOtherNetwork')
      : /[1-9]/.test(coin.toFiat)
      ? <WithAmount text={t('deposit.balanceUsd', { amount: AMOUNT_SLOT, usd: formatUsd(unitsToUsd(balance, coin.toFiat, depositDecimals(coin.currency)), i18n.language) })} amount={<CoinFigure units={balance} currency={coin.currency} />} />
      : <WithAmount text={t('deposit.balance', { amount: AMOUNT_SLOT })} amount={<CoinFigure units={balance} currency={coin.currency} />} />;

  const describedBy = ['deposit-amount-preview', 'deposit-amount-balance', amountError ? 'deposit-amount-error' : ''].filter(Boolean).join(' ');
  const busy = flow.busy !== null;

  return (
    <form className="form pool-form" noValidate onSubmit={onSubmit} aria-busy={busy}>
      <div className="field">
        <label htmlFor="deposit-currency">{t('deposit.currency')}</label>
        <select
          id="deposit-currency"
          value={coin.currency}
          onChange={(e) => {
            setCurrency(e.target.value as PoolCoin['currency']);
            setCoinText(null);
            clearRefusal();
          }}
        >
          {coins.map((c) => (
            <option key={c.currency} value={c.currency}>
              {c.currency}
            </option>
          ))}
        </select>
        {!isDepositable(coin) ? <p className="field__hint">{t('deposit.coinUnavailable', { coin: coin.currency })}</p> : null}
      </div>

      <div className={amountError ? 'field field--invalid' : 'field'}>
        <div className="pool-form__label-row">
          <label htmlFor="deposit-amount">{t('deposit.amount')}</label>
          <button
            type="button"
            className="btn btn--outline btn--xs"
            disabled={!onSupportedChain || !isDepositable(coin) || busy}
            onClick={() => {
              setUsd(maxUsd(balance, coin));
              setCoinText(null);
              clearRefusal();
            }}
          >
            {t('deposit.max')}
          </button>
        </div>
        <input
          id="deposit-amount"
          type="text"
          inputMode="decimal"
          autoComplete="off"
          placeholder={`${USD_INPUT_PREFIX}0.0`}
          value={usdInputText(usdShown)}
          aria-invalid={amountError ? true : undefined}
          aria-describedby={describedBy}
          onChange={(e) => {
            setUsd(parseUsdInput(e.target.value));
            setCoinText(null);
            clearRefusal();
          }}
        />
        <label htmlFor="deposit-coin-amount" className="pool-form__coin-label">
          {t('deposit.coinAmount', { coin: coin.currency })}
        </label>
        <input
          id="deposit-coin-amount"
          type="text"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.0"
          value={coinText ?? (units !== null ? formatUnits(units, decimals) : '')}
          aria-invalid={amountError ? true : undefined}
          aria-describedby={describedBy}
          onChange={(e) => {
            setCoinText(parseCoinInput(e.target.value, decimals));
            clearRefusal();
          }}
        />
        <p id="deposit-amount-preview" className="pool-form__preview" aria-live="polite">
          {units !== null ? <WithAmount text={t('deposit.preview', { amount: AMOUNT_SLOT })} amount={<CoinFigure units={units} currency={coin.currency} />} /> : t('deposit.previewNone')}
        </p>
        <p id="deposit-amount-balance" className="field__hint">
          {balanceText}
          {coin.currency === 'ETH' && onSupportedChain ? <> <WithAmount text={t('deposit.gasReserve', { amount: AMOUNT_SLOT })} amount={<CoinFigure units={ETH_GAS_RESERVE} currency="ETH" />} /></> : ''}
        </p>
        {amountError ? (
          <p id="deposit-amount-error" className="field__error">
            {amountError}
          </p>
        ) : null}
      </div>

      {refusal?.reason === 'notConnected' ? (
        <div className="alert alert--warning pool-form__alert" role="alert">
          <span>{t('deposit.notConnected')}</span>
          <button type="button" className="btn btn--primary btn--sm" onClick={() => bus.send({ type: 'wallet/connect' })}>
            {t('deposit.connect')}
          </button>
        </div>
      ) : null}
      {refusal?.reason === 'noGas' || refusal?.reason === 'walletFailed' ? (
        <div className="alert alert--warning pool-form__alert" role="alert" data-testid="deposit-wallet-error">
          {t(`deposit.${refusal.reason === 'noGas' ? 'noGas' : refusal.failure}`)}
        </div>
      ) : null}
      {refusal?.reason === 'unsupportedNetwork' ? (
        <div className="alert alert--warning pool-form__alert" role="alert">
          {t('deposit.unsupportedNetwork', { id: refusal.chainId ?? '?' })}
        </div>
      ) : null}

      <div className="form__actions">
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {flow.busy ? t(busyLabel[flow.busy]) : t('deposit.submit')}
        </button>
      </div>
    </form>
  );
}
