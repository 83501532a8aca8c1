import { useState, type ReactNode } from 'react';
import { coinAmountText } from '@app/web3';
import { CoinMark, COINS, type Coin } from './CoinMark';

const FULL_LABEL: Record<string, string> = { en: 'press for the exact figure', ru: 'нажмите, чтобы увидеть точное число' };
const isCoin = (currency: string): currency is Coin => (COINS as string[]).includes(currency);

/**
 * A coin amount with precision by magnitude, its unit on the same line and the coin's mark before it.
 * The exact figure is always in `data-full` (and `data-units`, in base units); when digits were rounded
 * away, the figure is a button: its title and name carry the exact figure, and pressing it shows it
 * (and again, the short one), so the keyboard reaches it too.
 */
export function Amount({ units, decimals, currency, lang, testId, fullLabel, mark = true, exact = false }: { units: bigint | string; decimals: number; currency: string; lang: string; testId?: string; fullLabel?: string; mark?: boolean; exact?: boolean }) {
  const [showFull, setShowFull] = useState(false);
  const text = coinAmountText(units, decimals, lang);
  const { short, full } = text;
  // `exact`: every digit shown, where the figure is one the user confirms (what will move).
  const rounded = text.rounded && !exact;
  const label = fullLabel ?? FULL_LABEL[lang] ?? FULL_LABEL.en;
  return (
    <span className="amount-figure" data-testid={testId} data-full={full} data-units={String(units)} data-currency={currency}>
      {mark && isCoin(currency) ? <CoinMark coin={currency} size={16} /> : null}
      {rounded ? (
        <button type="button" className="amount" aria-pressed={showFull} title={`${full} ${currency}`} aria-label={`${full} ${currency}, ${label}`} onClick={() => setShowFull((v) => !v)}>
          {`${showFull ? full : short}\u00a0${currency}`}
        </button>
      ) : (
        <span>{`${full}\u00a0${currency}`}</span>
      )}
    </span>
  );
}

/**
 * A translated sentence with an amount in it: `text` is the sentence translated with `slot` in the
 * amount's place, and `amount` is put there ("In this pool: <Amount/>").
 */
export function WithAmount({ text, amount, slot = AMOUNT_SLOT }: { text: string; amount: ReactNode; slot?: string }) {
  const at = text.indexOf(slot);
  if (at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      {amount}
      {text.slice(at + slot.length)}
    </>
  );
}

/** The stand-in for an amount in a sentence given to `WithAmount` (a character no translation has). */
export const AMOUNT_SLOT = '\u2063amount\u2063';
