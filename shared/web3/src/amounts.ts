// Exact money arithmetic with bigint only (DESIGN.md: money is never a float). Amounts travel as
// decimal strings ("12.5") between people and the UI, and as integer base units (wei, token units)
// to wallets, the chain and the server. Every division says which way it rounds.

import { ETH_DECIMALS } from './tokens';

/**
 * How to treat digits beyond the base unit: 'up' (toward more base units: what a deposit of a
 * dollar amount must send so it is not short), 'down' (what a balance can cover), or 'exact' (refuse).
 */
export type Rounding = 'up' | 'down' | 'exact';

/** Precision of the US-dollar input (spec §5: precision 1). */
export const USD_PRECISION = 1;
/** Prefix of the US-dollar input (spec §5). */
export const USD_INPUT_PREFIX = '$ ';

export class AmountError extends Error {
  override readonly name = 'AmountError';
}

/** A non-negative decimal as digits / 10^scale. */
interface Decimal {
  readonly digits: bigint;
  readonly scale: number;
}

// Plain decimal notation only: no sign, exponent, grouping or spaces inside, so what a person typed is
// what is sent. A leading or trailing point (".5", "5.") is accepted as number inputs produce them.
const DECIMAL_TEXT = /^(?:(\d+)(?:\.(\d*))?|\.(\d+))$/;

function parseDecimal(text: string, what: string): Decimal {
  const match = DECIMAL_TEXT.exec(text.trim());
  if (!match) throw new AmountError(`${what} is not a non-negative decimal number: "${text}"`);
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? match[3] ?? '';
  return { digits: BigInt(whole + fraction), scale: fraction.length };
}

function checkDecimals(decimals: number): void {
  // 77 digits is the most a uint256 can carry; anything else is a programming error.
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 77) {
    throw new AmountError(`decimals must be an integer from 0 to 77, got ${decimals}`);
  }
}

/** numerator / denominator for non-negative bigints, rounded as asked. */
function divide(numerator: bigint, denominator: bigint, rounding: Rounding): bigint {
  const quotient = numerator / denominator;
  const exact = quotient * denominator === numerator;
  if (exact) return quotient;
  if (rounding === 'exact') throw new AmountError('the amount has more decimal places than the unit allows');
  return rounding === 'up' ? quotient + 1n : quotient;
}

/**
 * A decimal string to integer base units: parseUnits("1.5", 6) === 1500000n.
 * Digits beyond `decimals` are refused unless `rounding` says which way to go.
 */
export function parseUnits(amount: string, decimals: number, rounding: Rounding = 'exact'): bigint {
  checkDecimals(decimals);
  const { digits, scale } = parseDecimal(amount, 'amount');
  if (scale <= decimals) return digits * 10n ** BigInt(decimals - scale);
  return divide(digits, 10n ** BigInt(scale - decimals), rounding);
}

/**
 * Integer base units to a decimal string without trailing zeros: formatUnits(1500000n, 6) === "1.5".
 * With `maxFractionDigits` the fraction is cut (rounded down toward zero) to that many digits.
 */
export function formatUnits(units: bigint, decimals: number, maxFractionDigits?: number): string {
  checkDecimals(decimals);
  const negative = units < 0n;
  let magnitude = negative ? -units : units;
  let places = decimals;
  if (maxFractionDigits !== undefined && maxFractionDigits < decimals) {
    if (!Number.isInteger(maxFractionDigits) || maxFractionDigits < 0) {
      throw new AmountError(`maxFractionDigits must be a non-negative integer, got ${maxFractionDigits}`);
    }
    magnitude /= 10n ** BigInt(decimals - maxFractionDigits);
    places = maxFractionDigits;
  }
  const scale = 10n ** BigInt(places);
  const whole = magnitude / scale;
  const fraction = places === 0 ? '' : (magnitude % scale).toString().padStart(places, '0').replace(/0+$/, '');
  const text = fraction ? `${whole}.${fraction}` : `${whole}`;
  return negative && text !== '0' ? `-${text}` : text;
}

/** ETH to wei, scaled by 10^18 and rounded up (spec §7: "the amount scaled by 10^18 (rounded up)"). */
export function ethToWei(amount: string): bigint {
  return parseUnits(amount, ETH_DECIMALS, 'up');
}

/** Wei to an ETH decimal string. */
export function weiToEth(wei: bigint): string {
  return formatUnits(wei, ETH_DECIMALS);
}

/**
 * A US-dollar amount to the coin's base units at a price in US dollars per whole coin, rounded up so
 * the deposit is never worth less than the dollars asked for. usdToUnits("100", "2500", 18) is
 * 0.04 ETH in wei. Refuses a price of zero (the pool has no estimate for the coin).
 */
export function usdToUnits(usd: string, priceUsd: string, decimals: number): bigint {
  checkDecimals(decimals);
  const amount = parseDecimal(usd, 'US-dollar amount');
  const price = parseDecimal(priceUsd, 'price');
  if (price.digits === 0n) throw new AmountError('the price is zero: no estimate for this coin');
  // units = (a / 10^p) / (b / 10^q) * 10^d = a * 10^(q+d) / (b * 10^p)
  const numerator = amount.digits * 10n ** BigInt(price.scale + decimals);
  const denominator = price.digits * 10n ** BigInt(amount.scale);
  return divide(numerator, denominator, 'up');
}

/**
 * The coin's base units to US dollars at a price, as a decimal string with at most `fractionDigits`
 * places (default the input's precision, 1), rounded down: a Max button built on it never offers more
 * than the balance covers, since usdToUnits(unitsToUsd(b)) <= b.
 */
export function unitsToUsd(units: bigint, priceUsd: string, decimals: number, fractionDigits = USD_PRECISION): string {
  checkDecimals(decimals);
  if (units < 0n) throw new AmountError('units must not be negative');
  const price = parseDecimal(priceUsd, 'price');
  // usd * 10^f = units * b * 10^f / (10^d * 10^q), rounded down
  const scaled = divide(
    units * price.digits * 10n ** BigInt(fractionDigits),
    10n ** BigInt(decimals + price.scale),
    'down',
  );
  return formatUnits(scaled, fractionDigits);
}

/** Rounds a decimal string to `fractionDigits` places, e.g. a typed "12.34" to the input's "12.3". */
export function roundDecimal(amount: string, fractionDigits: number, rounding: Exclude<Rounding, 'exact'> = 'down'): string {
  return formatUnits(parseUnits(amount, fractionDigits, rounding), fractionDigits);
}

/** True when the text is an amount parseUnits accepts (for form validation). */
export function isDecimalAmount(text: string): boolean {
  return DECIMAL_TEXT.test(text.trim());
}
