import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { translateMessage, type DashboardPoolResponse, type PoolName } from '@app/contracts';
import { formatDecimal, formatUnits, parseUnits } from '@app/web3';
import { AMOUNT_SLOT, WithAmount, useNotify, useRemote, useServerData } from '@app/ui';
import { isApiError } from '../errors';
import type { PoolCoin } from '../pool/poolCoins';
import { CoinFigure, depositDecimals } from '../deposit';
import { parseCoinInput } from './parseCoinInput';


type Quote = { currency: PoolCoin['currency']; amount: bigint; fee: bigint; receive: bigint; approvalRequired: boolean; heldUntil: string | null };

/** The withdrawal as it will be made: amount, fee, what arrives, and whether an approval or a hold comes first. */
function QuoteSummary({ quote, busy, onConfirm, onChange }: { quote: Quote; busy: boolean; onConfirm(): void; onChange(): void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const until = quote.heldUntil ? new Date(quote.heldUntil).toLocaleString(lang === 'ru' ? 'ru-RU' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) : null;
  return (
    <div className="withdraw-quote" role="group" aria-labelledby="withdraw-quote-title" data-testid="withdraw-quote">
      <h3 id="withdraw-quote-title">{t('withdraw.quote.title')}</h3>
      <dl className="withdraw-quote__figures">
        <div>
          <dt>{t('withdraw.quote.amount')}</dt>
          {/* Every figure whole (no digits cut): what the user confirms is exactly what will move. */}
          <dd data-testid="quote-amount"><CoinFigure units={quote.amount} currency={quote.currency} exact /></dd>
        </div>
        <div>
          <dt>{t('withdraw.quote.fee')}</dt>
          <dd data-testid="quote-fee"><CoinFigure units={quote.fee} currency={quote.currency} exact /></dd>
        </div>
        <div>
          <dt>{t('withdraw.quote.receive')}</dt>
          <dd data-testid="quote-receive"><CoinFigure units={quote.receive} currency={quote.currency} exact /></dd>
        </div>
      </dl>
      <p data-testid="quote-next">
        {until ? t('withdraw.quote.held', { until: `${until} UTC` }) : quote.approvalRequired ? t('withdraw.quote.approval') : t('withdraw.quote.direct')}
      </p>
      {until && quote.approvalRequired ? <p>{t('withdraw.quote.approval')}</p> : null}
      <div className="form__actions">
        <button type="button" className="btn btn--primary" disabled={busy || quote.receive <= 0n} onClick={onConfirm}>
          {busy ? t('withdraw.busy') : t('withdraw.quote.confirm')}
        </button>
        <button type="button" className="btn btn--outline" disabled={busy} onClick={onChange}>
          {t('withdraw.quote.change')}
        </button>
      </div>
    </div>
  );
}

interface Props {
  pool: PoolName;
  coins: readonly PoolCoin[];
  position: DashboardPoolResponse | null;
  onRequested(): void;
}

/**
 * The withdraw tab: the amount is quoted first (fee, what arrives, approval or hold), and the request
 * goes to the server only when the user confirms that quote.
 */
export function WithdrawForm({ pool, coins, position, onRequested }: Props) {
  const { t, i18n } = useTranslation();
  const { api } = useRemote();
  const notify = useNotify();
  const [currency, setCurrency] = useState(coins[0]!.currency);
  const [amount, setAmount] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  /** The quote of the amount the user asked for, shown for confirmation before anything is requested. */
  const [quote, setQuote] = useState<Quote | null>(null);
  const inFlight = useRef(false);
  const coin = coins.find((c) => c.currency === currency) ?? coins[0]!;
  const decimals = depositDecimals(coin.currency);
  const availableText = position?.deposited[coin.currency];
  const available = availableText && /^\d+$/.test(availableText) ? BigInt(availableText) : 0n;
  // The smallest withdrawal per currency, as the server enforces it. Until it is known (or if it
  // cannot be read) the form sends the request and shows the server's answer instead.
  const { state: rules } = useServerData((signal) => api.call('dashboardWithdrawRules', { signal }), [api]);
  const rule = rules.status === 'ready' ? (rules.data.currencies.find((c) => c.currency === coin.currency) ?? null) : undefined;
  const minimum = rule ? <CoinFigure units={rule.minimum} currency={coin.currency} exact /> : null;
  // The same figure inside the refusal's sentence, which is plain text (it is also what the server says).
  const minimumText = rule ? `${formatDecimal(formatUnits(BigInt(rule.minimum), decimals), i18n.language)} ${coin.currency}` : null;
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
      setError(t('withdraw.belowMinimum', { coin: coin.currency, minimum: minimumText }));
      return;
    }
    setError('');
    inFlight.current = true;
    setBusy(true);
    try {
      const answer = await api.call('dashboardWithdrawQuote', { query: { pool, currency: coin.currency, amount: units.toString() } });
      setQuote({ currency: coin.currency, amount: units, fee: BigInt(answer.fee), receive: BigInt(answer.receive), approvalRequired: answer.approvalRequired, heldUntil: answer.heldUntil ?? null });
    } catch (failure) {
      refused(failure);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  /** A refusal in the server's words beside the amount (e.g. 'You have not replenished this pool yet'); anything else is the spec's general failure. */
  const refused = (failure: unknown) => {
    if (isApiError(failure) && failure.status >= 400 && failure.status < 500 && failure.message) {
      notify({ kind: 'warning', message: failure.message });
      setError(failure.message);
    } else {
      notify({ kind: 'error', message: t('withdraw.failed') });
    }
  };

  const onConfirm = async () => {
    if (inFlight.current || !quote) return;
    inFlight.current = true;
    setBusy(true);
    try {
      const answer = await api.call('dashboardWithdraw', { body: { pool, amount: quote.amount.toString(), currency: quote.currency } });
      // The server's words in the page's language (e.g. that a recent account change holds the payout).
      notify({ kind: 'success', message: answer.message ? translateMessage(answer.message, i18n.language === 'ru' ? 'ru' : 'en') : t('withdraw.sent') });
      setAmount('');
      setQuote(null);
      onRequested();
    } catch (failure) {
      setQuote(null);
      refused(failure);
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
            setQuote(null);
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
              setQuote(null);
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
            setQuote(null);
          }}
        />
        <p id="withdraw-amount-available" className="field__hint">
          <WithAmount text={t('withdraw.available', { amount: AMOUNT_SLOT })} amount={<CoinFigure units={available} currency={coin.currency} />} />
        </p>
        {minimum || closed ? (
          <p id="withdraw-amount-minimum" className="field__hint" data-testid="withdraw-minimum">
            {closed ?? <WithAmount text={t('withdraw.minimum', { minimum: AMOUNT_SLOT })} amount={minimum} />}
          </p>
        ) : null}
        {error ? (
          <p id="withdraw-amount-error" className="field__error">
            {error}
          </p>
        ) : null}
      </div>
      {quote ? (
        <QuoteSummary quote={quote} busy={busy} onConfirm={onConfirm} onChange={() => setQuote(null)} />
      ) : (
        <div className="form__actions">
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {busy ? t('withdraw.busy') : t('withdraw.submit')}
          </button>
        </div>
      )}
    </form>
  );
}
