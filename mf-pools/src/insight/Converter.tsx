import { useId, useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { AmountError, formatUnits, formatUsd, parseUnits, unitsToUsd, usdToUnits } from '@app/web3';
import { depositDecimals } from '../deposit/amounts';
import type { PoolCoin } from '../pool/poolCoins';
import { CoinSelect } from './CoinSelect';

const COIN_DIGITS = 6;
const clean = (text: string) => text.replace(',', '.').trim();

/** An amount in a coin ↔ US dollars, both ways, at the pool's estimate (spec §3); exact decimals only. */
export function Converter({ coins }: { coins: readonly PoolCoin[] }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [currency, setCurrency] = useState(coins[0]!.currency);
  const coin = coins.find((c) => c.currency === currency) ?? coins[0]!;
  const [coinText, setCoinText] = useState('');
  const [usdText, setUsdText] = useState('');
  const [invalid, setInvalid] = useState(false);
  const priced = /[1-9]/.test(coin.toFiat);
  const decimals = depositDecimals(coin.currency);

  const fromCoin = (text: string) => {
    setCoinText(text);
    try {
      setUsdText(text.trim() && priced ? unitsToUsd(parseUnits(clean(text), decimals, 'down'), coin.toFiat, decimals, 2) : '');
      setInvalid(false);
    } catch (e) {
      if (!(e instanceof AmountError) && !(e instanceof Error)) throw e;
      setInvalid(true);
    }
  };
  const fromUsd = (text: string) => {
    setUsdText(text);
    try {
      setCoinText(text.trim() && priced ? formatUnits(usdToUnits(clean(text), coin.toFiat, decimals), decimals, COIN_DIGITS) : '');
      setInvalid(false);
    } catch {
      setInvalid(true);
    }
  };

  return (
    <section className="section" aria-labelledby={`${id}-title`} data-testid="converter">
      <h2 id={`${id}-title`}>{t('converter.title')}</h2>
      <div className="grid">
        <CoinSelect
          label={t('converter.currency')}
          coins={coins}
          value={coin.currency}
          onChange={(c) => {
            setCurrency(c);
            setCoinText('');
            setUsdText('');
          }}
        />
        <label className="field">
          <span>{t('converter.coinAmount', { coin: coin.currency })}</span>
          <input inputMode="decimal" value={coinText} onChange={(e) => fromCoin(e.target.value)} aria-invalid={invalid} data-testid="converter-coin" />
        </label>
        <label className="field">
          <span>{t('converter.usdAmount')}</span>
          <input inputMode="decimal" value={usdText} onChange={(e) => fromUsd(e.target.value)} aria-invalid={invalid} data-testid="converter-usd" />
        </label>
      </div>
      <p className="muted" aria-live="polite">
        {invalid ? t('converter.invalid') : priced ? t('converter.rate', { coin: coin.currency, usd: formatUsd(coin.toFiat, i18n.language, {}) }) : t('converter.noEstimate', { coin: coin.currency })}
      </p>
    </section>
  );
}
