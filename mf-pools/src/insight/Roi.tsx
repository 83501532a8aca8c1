import { useId, useMemo, useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { formatCoinUnits, formatPercent, formatUsd, parseUnits, projectBalance, unitsToUsd } from '@app/web3';
import { depositDecimals } from '../deposit/amounts';
import type { PoolCoin } from '../pool/poolCoins';
import { CoinSelect } from './CoinSelect';

const PERIODS = [7, 30, 90, 180, 365] as const;
const MAX_DAYS = 3650;

/**
 * Amount, currency and period give the projected value with daily compounding, from the same
 * projection the server's accrual uses (projectBalance), so it never disagrees with what is credited
 * for an amount held whole days; the note under it says why a deposit's first, partial day earns nothing.
 */
export function RoiCalculator({ coins, apy }: { coins: readonly PoolCoin[]; apy: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const id = useId();
  const [currency, setCurrency] = useState(coins[0]!.currency);
  const coin = coins.find((c) => c.currency === currency) ?? coins[0]!;
  const [amount, setAmount] = useState('1');
  const [days, setDays] = useState('30');
  const decimals = depositDecimals(coin.currency);

  const result = useMemo(() => {
    const n = /^\d{1,4}$/.test(days) ? Number(days) : NaN;
    if (!(n >= 1 && n <= MAX_DAYS)) return { error: t('roi.badDays', { max: MAX_DAYS }) };
    let units: bigint;
    try {
      units = parseUnits(amount.replace(',', '.').trim(), decimals, 'down');
    } catch {
      return { error: t('roi.badAmount') };
    }
    if (units <= 0n) return { error: t('roi.badAmount') };
    const projected = projectBalance(units, apy, n);
    return { units, projected, earned: projected - units, days: n };
  }, [amount, days, decimals, apy, t]);

  const usd = (units: bigint) => (/[1-9]/.test(coin.toFiat) ? ` (${formatUsd(unitsToUsd(units, coin.toFiat, decimals, 2), lang)})` : '');

  return (
    <section className="section" aria-labelledby={`${id}-title`} data-testid="roi">
      <h2 id={`${id}-title`}>{t('roi.title')}</h2>
      <div className="grid">
        <label className="field">
          <span>{t('roi.amount')}</span>
          <input inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} data-testid="roi-amount" />
        </label>
        <CoinSelect label={t('roi.currency')} coins={coins} value={coin.currency} onChange={setCurrency} testId="roi-currency" />
        <label className="field">
          <span>{t('roi.days')}</span>
          <input inputMode="numeric" value={days} onChange={(e) => setDays(e.target.value)} list={`${id}-periods`} data-testid="roi-days" />
          <datalist id={`${id}-periods`}>
            {PERIODS.map((p) => (
              <option key={p} value={p} />
            ))}
          </datalist>
        </label>
      </div>
      {'error' in result ? (
        <p className="field__error" role="alert">{result.error}</p>
      ) : (
        <dl className="stat" aria-live="polite">
          <dt>{t('roi.projected', { days: result.days })}</dt>
          <dd data-testid="roi-projected">
            {formatCoinUnits(result.projected, decimals, lang, decimals)} {coin.currency}
            {usd(result.projected)}
          </dd>
          <dt>{t('roi.earned')}</dt>
          <dd data-testid="roi-earned">
            {formatCoinUnits(result.earned, decimals, lang, decimals)} {coin.currency}
            {usd(result.earned)}
          </dd>
        </dl>
      )}
      <p className="muted">{t('roi.formula', { apy: formatPercent(apy, lang) })}</p>
      <p className="muted" data-testid="roi-held">{t('roi.held')}</p>
    </section>
  );
}
