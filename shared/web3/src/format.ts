// The one formatter of money, percentages and dates for people (spec §9). Works on decimal strings and
// bigints only: no amount passes through a JavaScript float on its way to the screen.
import { formatUnits } from './amounts';

export type DisplayLang = 'en' | 'ru' | (string & {});

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;
const separators = (lang: DisplayLang) => (lang === 'ru' ? { decimal: ',', locale: 'ru-RU' } : { decimal: '.', locale: 'en-US' });

const formats = new Map<string, Intl.NumberFormat>();
/** One formatter per locale: making one costs far more than formatting (a page formats hundreds of figures). */
export function grouping(locale: string): Intl.NumberFormat {
  let format = formats.get(locale);
  if (!format) formats.set(locale, (format = new Intl.NumberFormat(locale)));
  return format;
}

/**
 * A decimal string grouped and punctuated for the language: "1234.5" → "1,234.5" (en), "1 234,5" (ru,
 * no-break space). The fraction is cut (never rounded up) to `maxFraction` and padded to `minFraction`.
 */
export function formatDecimal(value: string, lang: DisplayLang, opts: { minFraction?: number; maxFraction?: number } = {}): string {
  const m = DECIMAL.exec(value.trim());
  if (!m) return value;
  const [, sign, whole, rawFraction = ''] = m;
  let fraction = opts.maxFraction !== undefined ? rawFraction.slice(0, opts.maxFraction) : rawFraction;
  fraction = fraction.replace(/0+$/, '').padEnd(opts.minFraction ?? 0, '0');
  const { decimal, locale } = separators(lang);
  // Intl formats a bigint exactly.
  const grouped = grouping(locale).format(BigInt(whole!));
  const negative = sign === '-' && /[1-9]/.test(whole! + fraction);
  return `${negative ? '-' : ''}${grouped}${fraction ? decimal + fraction : ''}`;
}

/**
 * The space the spec puts between a figure and its sign ("$ 1", "5 %"), made a no-break space so a line
 * never ends between the sign and its number (issue 27, finding 4).
 */
export const SIGN_SPACE = '\u00a0';

/** US dollars from a decimal string: "$ 1,234.56" (a no-break space after the symbol), "$ 1 234,56" under /ru. */
export function formatUsd(value: string, lang: DisplayLang, opts: { minFraction?: number; maxFraction?: number } = { minFraction: 2, maxFraction: 2 }): string {
  const text = formatDecimal(value, lang, opts);
  return text.startsWith('-') ? `-$${SIGN_SPACE}${text.slice(1)}` : `$${SIGN_SPACE}${text}`;
}

/** A fraction as a percentage with a no-break space before the sign: "0.125" → "12.5 %" ("12,5 %" under /ru). */
export function formatPercent(fraction: string, lang: DisplayLang, maxFraction = 2): string {
  const m = DECIMAL.exec(fraction.trim());
  if (!m) return fraction;
  const [, sign, whole, frac = ''] = m;
  // × 100 is a shift of the decimal point by two places.
  const digits = `${whole}${frac.padEnd(2, '0')}`;
  const point = whole!.length + 2;
  const shifted = `${sign}${digits.slice(0, point).replace(/^0+(?=\d)/, '')}.${digits.slice(point) || '0'}`;
  return `${formatDecimal(shifted, lang, { maxFraction })}${SIGN_SPACE}%`;
}

/** Base units of a coin for people: 1500000n with 6 decimals → "1.5" (cut to `maxFraction` places). */
export function formatCoinUnits(units: bigint | string, decimals: number, lang: DisplayLang, maxFraction = 6): string {
  return formatDecimal(formatUnits(BigInt(units), decimals, Math.min(decimals, maxFraction)), lang);
}

/** A date or an ISO timestamp as YYYY-MM-DD (UTC), in every language. */
export function formatDay(value: string | Date): string {
  return (typeof value === 'string' ? value : value.toISOString()).slice(0, 10);
}

/**
 * A coin amount as people read it, with precision by magnitude: `significant` digits counted from the
 * first one that is not zero, but never fewer than two decimal places for an amount of one coin or
 * more, rounded half up on the exact decimal (bigint, never a float). `full` is the exact figure;
 * `rounded` says whether the short one dropped digits (the page then offers the full one).
 * 1179999999999999800n (18) → short "1.18", full "1.1799999999999998".
 */
export function coinAmountText(units: bigint | string, decimals: number, lang: DisplayLang, significant = 6): { short: string; full: string; rounded: boolean } {
  const value = BigInt(units);
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const full = formatDecimal(formatUnits(value, decimals), lang);
  const wholeDigits = (magnitude / 10n ** BigInt(decimals)).toString().length;
  let places: number;
  if (magnitude >= 10n ** BigInt(decimals)) places = Math.max(2, significant - wholeDigits);
  else {
    // Zeros between the point and the first significant digit, then the significant digits.
    const fraction = magnitude.toString().padStart(decimals, '0');
    const zeros = fraction.length - fraction.replace(/^0+/, '').length;
    places = zeros + significant;
  }
  if (places >= decimals) return { short: full, full, rounded: false };
  const step = 10n ** BigInt(decimals - places);
  const roundedUnits = ((magnitude + step / 2n) / step) * step;
  const short = formatDecimal(formatUnits(negative ? -roundedUnits : roundedUnits, decimals), lang);
  return { short, full, rounded: roundedUnits !== magnitude };
}
