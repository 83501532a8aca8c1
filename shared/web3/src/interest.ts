// Daily compounding in exact fixed point. The server's accrual and the browser's ROI calculator both
// use these functions, so they can never disagree. Formula and rounding: api/src/interest/README.md.

/** Rates are integers scaled by 10^30: 30 decimal digits (the issue asks for at least 27). */
export const RATE_DECIMALS = 30;
export const RATE_SCALE = 10n ** BigInt(RATE_DECIMALS);
export const DAYS_PER_YEAR = 365;

const APY = /^(0|[1-9]\d{0,5})(\.\d{1,18})?$/;

/** An APY as a decimal fraction string ('0.05' is 5 %) to an exact ratio; throws on anything else. */
export function parseApy(apy: string): { num: bigint; den: bigint } {
  if (!APY.test(apy)) throw new RangeError(`APY must be a non-negative decimal fraction such as 0.05, got '${apy}'`);
  const [whole, frac = ''] = apy.split('.');
  const den = 10n ** BigInt(frac.length);
  return { num: BigInt(whole!) * den + BigInt(frac || '0'), den };
}

/**
 * A start for Newton's method just above value^(1/n): the root estimated in floating point from
 * the value's leading 53 bits and its length, raised by one part in 10^9 (far beyond the
 * estimate's error), checked to be above the root; else 2^ceil(bits/n), which always is.
 */
function rootStart(value: bigint, n: number, k: bigint): bigint {
  const bits = value.toString(2).length;
  const safe = 1n << BigInt(Math.ceil(bits / n));
  const shift = Math.max(0, bits - 53);
  const log2Root = (Math.log2(Number(value >> BigInt(shift))) + shift) / n;
  // The estimate as mantissa × 2^exponent, with a 53-bit mantissa.
  const exponent = Math.floor(log2Root) - 52;
  const mantissa = BigInt(Math.ceil(2 ** (log2Root - exponent) * (1 + 1e-9)));
  const estimate = exponent >= 0 ? mantissa << BigInt(exponent) : (mantissa >> BigInt(-exponent)) + 1n;
  return estimate < safe && estimate ** k >= value ? estimate : safe;
}

/** floor(value^(1/n)) for value ≥ 0, by Newton's method from above (exact). */
export function integerRoot(value: bigint, n: number): bigint {
  if (value < 0n) throw new RangeError('negative');
  if (value < 2n) return value;
  const k = BigInt(n);
  // From just above the root, a few steps do (from 2^ceil(bits/n), the 365th root behind the
  // daily rate took hundreds, a visible part of a pool page's first render on a slow phone).
  let x = rootStart(value, n, k);
  for (;;) {
    const next = ((k - 1n) * x + value / x ** (k - 1n)) / k;
    if (next >= x) return x;
    x = next;
  }
}

const rates = new Map<string, bigint>();

/**
 * The daily rate r = (1 + APY)^(1/365) − 1, scaled by 10^30 and rounded down:
 * floor(10^30 · (1 + APY)^(1/365)) − 10^30, computed as an exact integer 365th root.
 */
export function dailyRate(apy: string): bigint {
  const cached = rates.get(apy);
  if (cached !== undefined) return cached;
  const { num, den } = parseApy(apy);
  const root = integerRoot((RATE_SCALE ** BigInt(DAYS_PER_YEAR) * (den + num)) / den, DAYS_PER_YEAR);
  const r = root - RATE_SCALE;
  rates.set(apy, r);
  return r;
}

/** One day's interest on a balance: floor(balance × r), in base units. */
export const dailyInterest = (balance: bigint, rate: bigint): bigint => (balance <= 0n ? 0n : (balance * rate) / RATE_SCALE);

/**
 * The balance after `days` days of daily compounding at `apy`, with nothing deposited or withdrawn
 * meanwhile: each day adds floor(balance × r), exactly as the server credits a balance held from
 * the first day's start (the server pays each day on its lowest balance, so a deposit's own,
 * partly held day earns nothing).
 */
export function projectBalance(balance: bigint, apy: string, days: number): bigint {
  if (!Number.isInteger(days) || days < 0) throw new RangeError('days must be a whole number ≥ 0');
  const r = dailyRate(apy);
  let b = balance;
  for (let d = 0; d < days; d++) b += dailyInterest(b, r);
  return b;
}

/** Interest earned over `days` days on a constant balance (the projection minus the balance). */
export const projectEarnings = (balance: bigint, apy: string, days: number): bigint => projectBalance(balance, apy, days) - balance;
