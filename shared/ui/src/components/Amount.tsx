import { useState } from 'react';
import { coinAmountText } from '@app/web3';

/**
 * A coin amount with precision by magnitude and its unit on the same line; when digits were
 * rounded away, pressing it shows the exact figure (and again, the short one).
 */
export function Amount({ units, decimals, currency, lang, testId, fullLabel }: { units: bigint | string; decimals: number; currency: string; lang: string; testId?: string; fullLabel: string }) {
  const [showFull, setShowFull] = useState(false);
  const { short, full, rounded } = coinAmountText(units, decimals, lang);
  if (!rounded) return <span data-testid={testId}>{`${full}\u00a0${currency}`}</span>;
  return (
    <button type="button" className="amount" aria-pressed={showFull} title={`${full} ${currency}`} aria-label={`${full} ${currency}, ${fullLabel}`} onClick={() => setShowFull((v) => !v)} data-testid={testId} data-full={full}>
      {`${showFull ? full : short}\u00a0${currency}`}
    </button>
  );
}
