import { useId, useMemo, useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import type { DashboardPoolResponse } from '@app/contracts';
import { Amount } from '@app/ui';
import { formatPercent, formatUnits, formatUsd, parseUnits, projectBalance, unitsToUsd } from '@app/web3';
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
export function RoiCalculator({ coins, apy, position }: { coins: readonly PoolCoin[]; apy: string; position?: DashboardPoolResponse | null }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const id = useId();
  // It starts from what the user holds in the pool (the first coin with a position), else from 1 coin.
  const held = (c: PoolCoin) => BigInt(/^\d+$/.test(position?.deposited[c.currency] ?? '') ? position!.deposited[c.currency]! : '0');
  const start = coins.find((c) => held(c) > 0n);
  const [currency, setCurrency] = useState((start ?? coins[0]!).currency);
  const coin = coins.find((c) => c.currency === currency) ?? coins[0]!;
  const [amount, setAmount] = useState(() => (start ? formatUnits(held(start), depositDecimals(start.currency)) : '1'));
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

  const usd = (units: bigint) => (/[1-9]/.test(coin.toFiat) ? `\u00a0(${formatUsd(unitsToUsd(units, coin.toFiat, decimals, 2), lang)})` : '');

  return (
    <section className="section" aria-labelledby={`${id}-title`} data-testid="roi">
      <h2 id={`${id}-title`}>{t('roi.title')}</h2>
      <div className="grid">
        <label className="field">
          <span>{t('roi.amount', { coin: coin.currency })}</span>
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
            <Amount units={result.projected} decimals={decimals} currency={coin.currency} lang={lang} fullLabel={t('roi.full')} testId="roi-projected-amount" />
            {usd(result.projected)}
          </dd>
          <dt>{t('roi.earned')}</dt>
          <dd data-testid="roi-earned">
            <Amount units={result.earned} decimals={decimals} currency={coin.currency} lang={lang} fullLabel={t('roi.full')} testId="roi-earned-amount" />
            {usd(result.earned)}
          </dd>
        </dl>
      )}
      <p className="muted">{t('roi.formula', { apy: formatPercent(apy, lang) })}</p>
      <p className="muted" data-testid="roi-held">{t('roi.held')}</p>
    </section>
  );
}
