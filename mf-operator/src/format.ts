// Figures as the console shows them: amounts with every digit (an operator decides on exact
// figures), ages in hours, times in UTC.
import { CHAIN_IDS, decimalsOf, formatDecimal, formatUnits, type Currency } from '@app/web3';

/** Decimals of a currency's base unit (the same on every chain the site knows), or undefined. */
export function decimalsFor(currency: string): number | undefined {
  for (const chain of CHAIN_IDS) {
    const d = decimalsOf(currency as Currency, chain);
    if (d !== undefined) return d;
  }
  return undefined;
}

/** Base units as a coin amount with all its digits, e.g. "0.005 ETH"; base units when the currency is unknown. */
export function coinText(units: string, currency: string, lang: string): string {
  const d = decimalsFor(currency);
  return `${d === undefined ? units : formatDecimal(formatUnits(BigInt(units), d), lang)}\u00a0${currency}`;
}

/** An ISO time as "YYYY-MM-DD HH:MM UTC". */
export const utcTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** Whole hours since an ISO time. */
export const hoursSince = (iso: string, now = Date.now()) => Math.max(0, Math.floor((now - Date.parse(iso)) / 3_600_000));

/** Basis points as a percentage from their digits (no float on the way): 725n → "7.25 %". */
export const bpsPercent = (bps: bigint, lang: string, minFraction = 0) =>
  `${formatDecimal(`${bps / 100n}.${String(bps % 100n).padStart(2, '0')}`, lang, { minFraction, maxFraction: 2 })}\u00a0%`;

/**
 * A percentage as typed ("7.25", "7,25") to the fraction the API keeps ("0.0725"), by moving the
 * decimal point (no float on the way); undefined when it is not a plain non-negative number.
 */
export function percentToFraction(text: string): string | undefined {
  const m = /^(\d{1,6})(?:[.,](\d{1,16}))?$/.exec(text.trim());
  if (!m) return undefined;
  const digits = `${m[1]!.padStart(3, '0')}${m[2] ?? ''}`;
  const point = m[1]!.padStart(3, '0').length - 2;
  const whole = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  const fraction = digits.slice(point).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** An APY as stored (a fraction, "0.072500000000000000") as a percentage from its digits: "7.25 %". */
export function apyPercent(apy: string, lang: string): string {
  const [int = '0', frac = ''] = apy.split('.');
  const digits = `${int}${frac.padEnd(2, '0')}`;
  const whole = digits.slice(0, int.length + 2).replace(/^0+(?=\d)/, '');
  const rest = digits.slice(int.length + 2).replace(/0+$/, '');
  return `${formatDecimal(rest ? `${whole}.${rest}` : whole, lang)}\u00a0%`;
}

/** A percentage as typed ("2.5", "2,5") in whole basis points (250); undefined when it is not 0 to 999.99. */
export function percentToBps(text: string): number | undefined {
  const m = /^(\d{1,3})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0')) : undefined;
}
