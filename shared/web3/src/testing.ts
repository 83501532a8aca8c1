// `@app/web3/testing`: the tests' interest oracle, daily compounding computed independently of the
// engine (api/src/interest/README.md) and of this package's own `dailyRate`. For tests only: the
// API and the pages never import it.

/**
 * The daily rate of an APY num/den, scaled by 10^30 and rounded down, found by bisection on
 * root^365 ≤ S^365·(1+a): another method than the engine's Newton iteration.
 */
export function dailyRate(apyNum: bigint, apyDen: bigint): bigint {
  const S = 10n ** 30n;
  const target = S ** 365n * (apyDen + apyNum);
  let lo = S;
  let hi = 2n * S;
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    if (mid ** 365n * apyDen <= target) lo = mid;
    else hi = mid;
  }
  return lo - S;
}

/** Each day's interest on a balance nobody moves, compounding: floor(b · R / S) a day. */
export function dailyInterest(balance: bigint, rate: bigint, days: number): bigint[] {
  const out: bigint[] = [];
  let b = balance;
  for (let d = 0; d < days; d++) {
    const i = (b * rate) / 10n ** 30n;
    out.push(i);
    b += i;
  }
  return out;
}

/** Interest of `days` days of daily compounding on a balance nobody moves. */
export const earned = (balance: bigint, apyNum: bigint, apyDen: bigint, days: number): bigint =>
  dailyInterest(balance, dailyRate(apyNum, apyDen), days).reduce((a, b) => a + b, 0n);
