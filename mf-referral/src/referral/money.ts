// Exact figures for the referral pages: base units and cents as bigint, text through the shared formatter.
// The payout currency's decimals come with the answers, so the token table stays out of the page.
import { formatCoinUnits } from '@app/web3';

/** "12.345678 USDT" in the page's language. */
export const coinText = (units: string | bigint, currency: string, decimals: number, lang: string) => `${formatCoinUnits(units, decimals, lang)} ${currency}`;

/** Basis points as the fraction the percent formatter takes: 1000 → "0.1", 25 → "0.0025". */
export function bpsFraction(bps: number): string {
  const whole = Math.trunc(bps / 10000);
  const rest = String(bps % 10000).padStart(4, '0').replace(/0+$/, '');
  return rest ? `${whole}.${rest}` : String(whole);
}
