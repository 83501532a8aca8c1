import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { translateMessage, type DashboardPoolResponse, type PoolName } from '@app/contracts';
import { formatUnits, parseUnits } from '@app/web3';
import { useNotify, useRemote, useServerData } from '@app/ui';
import { isApiError } from '../errors';
import type { PoolCoin } from '../pool/poolCoins';
import { depositDecimals, formatCoin } from '../deposit';

/** Digits and one point, the fraction cut to the coin's decimals. */
export function parseCoinInput(text: string, decimals: number): string {
  const cleaned = text.replace(/[^0-9.]/g, '');
  const point = cleaned.indexOf('.');
  if (point < 0) return cleaned;
  return `${cleaned.slice(0, point)}.${cleaned.slice(point + 1).replace(/\./g, '').slice(0, decimals)}`;
}

interface Props {
  pool: PoolName;
  coins: readonly PoolCoin[];
  position: DashboardPoolResponse | null;
  onRequested(): void;
}

/** The withdraw tab: a request to the server (spec §1: the result is not shown here). */
export function WithdrawForm({ pool, coins, position, onRequested }: Props) {
  const { t, i18n } = useTranslation();
  const { api } = useRemote();
  const notify = useNotify();
  const [currency, setCurrency] = useState(coins[0]!.currency);
  const [amount, setAmount] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);
  const coin = coins.find((c) => c.currency === currency) ?? coins[0]!;
  const decimals = depositDecimals(coin.currency);
  const availableText = position?.deposited[coin.currency];
  const available = availableText && /^\d+$/.test(availableText) ? BigInt(availableText) : 0n;
  // The smallest withdrawal per currency, as the server enforces it. Until it is known (or if it
  // cannot be read) the form sends the request and shows the server's answer instead.
  const { state: rules } = useServerData((signal) => api.call('dashboardWithdrawRules', { signal }), [api]);
  const rule = rules.status === 'ready' ? (rules.data.currencies.find((c) => c.currency === coin.currency) ?? null) : undefined;
  const minimum = rule ? `${formatUnits(BigInt(rule.minimum), decimals)} ${coin.currency}` : null;
  const closed = rule === null ? t('withdraw.closed', { coin: coin.currency }) : null;

  useEffect(() => {
    if (!coins.some((c) => c.currency === currency)) setCurrency(coins[0]!.currency);
  }, [coins, currency]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (inFlight.current) return;
    if (!/[1-9]/.test(amount)) {
      setError(t('withdraw.required'));
      return;
    }
    const units = parseUnits(amount, decimals, 'down');
    if (closed) {
      setError(closed);
      return;
    }
    if (rule && minimum && units < BigInt(rule.minimum)) {
      setError(t('withdraw.belowMinimum', { coin: coin.currency, minimum }));
      return;
    }
    setError('');
    inFlight.current = true;
    setBusy(true);
    try {
      const answer = await api.call('dashboardWithdraw', { body: { pool, amount: units.toString(), currency: coin.currency } });
      // The server's words in the page's language (e.g. that a recent account change holds the payout).
      notify({ kind: 'success', message: answer.message ? translateMessage(answer.message, i18n.language === 'ru' ? 'ru' : 'en') : t('withdraw.sent') });
      setAmount('');
      onRequested();
    } catch (failure) {
      // The server's refusal says why (e.g. 'You have not replenished this pool yet'); anything
      // else (no answer, a server fault) is the spec's general failure.
      if (isApiError(failure) && failure.status >= 400 && failure.status < 500 && failure.message) {
        notify({ kind: 'warning', message: failure.message });
        setError(failure.message);
      } else {
        notify({ kind: 'error', message: t('withdraw.failed') });
      }
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  const describedBy = ['withdraw-amount-available', minimum || closed ? 'withdraw-amount-minimum' : '', error ? 'withdraw-amount-error' : ''].filter(Boolean).join(' ');
  return (
    <form className="form pool-form" noValidate onSubmit={onSubmit} aria-busy={busy}>
      <p className="field__hint">{t('withdraw.note')}</p>
      <div className="field">
        <label htmlFor="withdraw-currency">{t('withdraw.currency')}</label>
        <select
          id="withdraw-currency"
          value={coin.currency}
          onChange={(e) => {
            setCurrency(e.target.value as PoolCoin['currency']);
            setAmount('');
            setError('');
          }}
        >
          {coins.map((c) => (
            <option key={c.currency} value={c.currency}>
              {c.currency}
            </option>
          ))}
        </select>
      </div>
      <div className={error ? 'field field--invalid' : 'field'}>
        <div className="pool-form__label-row">
          <label htmlFor="withdraw-amount">{t('withdraw.amount', { coin: coin.currency })}</label>
          <button
            type="button"
            className="btn btn--outline btn--xs"
            disabled={available <= 0n || busy}
            onClick={() => {
              setAmount(formatUnits(available, decimals));
              setError('');
            }}
          >
            {t('withdraw.max')}
          </button>
        </div>
        <input
          id="withdraw-amount"
          type="text"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.0"
          value={amount}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(e) => {
            setAmount(parseCoinInput(e.target.value, decimals));
            setError('');
          }}
        />
        <p id="withdraw-amount-available" className="field__hint">
          {t('withdraw.available', { amount: formatCoin(available, coin.currency) })}
        </p>
        {minimum || closed ? (
          <p id="withdraw-amount-minimum" className="field__hint" data-testid="withdraw-minimum">
            {closed ?? t('withdraw.minimum', { minimum })}
          </p>
        ) : null}
        {error ? (
          <p id="withdraw-amount-error" className="field__error">
            {error}
          </p>
        ) : null}
      </div>
      <div className="form__actions">
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {busy ? t('withdraw.busy') : t('withdraw.submit')}
        </button>
      </div>
    </form>
  );
}
