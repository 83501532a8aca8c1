import fc from 'fast-check';
import { RATE_SCALE, dailyRate, integerRoot, parseApy, projectBalance } from './interest';

const apyArb = fc.integer({ min: 0, max: 50_000 }).map((bps) => (bps / 10_000).toFixed(4)); // 0 % to 500 %
const balanceArb = fc.bigInt({ min: 0n, max: 10n ** 30n });

/** The exact real value b·(1+a)^(d/365) compared without rounding: is `x` ≤ it? (x^365 ≤ b^365·(1+a)^d) */
function notAboveExact(x: bigint, balance: bigint, apy: string, days: number): boolean {
  const { num, den } = parseApy(apy);
  return x ** 365n * den ** BigInt(days) <= balance ** 365n * (den + num) ** BigInt(days);
}

describe('daily rate', () => {
  it('is floor(10^30 · (1+APY)^(1/365)) − 10^30, exactly', () => {
    fc.assert(
      fc.property(apyArb, (apy) => {
        const { num, den } = parseApy(apy);
        const root = dailyRate(apy) + RATE_SCALE;
        // root^365 ≤ S^365 (1+a) < (root+1)^365
        const target = RATE_SCALE ** 365n * (den + num);
        return root ** 365n * den <= target && (root + 1n) ** 365n * den > target;
      }),
      { numRuns: 40 },
    );
  });

  it('integer roots are floors', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 10n ** 60n }), fc.integer({ min: 2, max: 9 }), (v, n) => {
      const r = integerRoot(v, n);
      return r ** BigInt(n) <= v && (r + 1n) ** BigInt(n) > v;
    }));
  });

  it('integer roots are floors at the daily rate’s size, on exact powers and one below them', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 2n, max: 10n ** 31n }), fc.constantFrom(2, 3, 53, 364, 365, 366), fc.boolean(), (x, n, below) => {
        const v = x ** BigInt(n) - (below ? 1n : 0n);
        const r = integerRoot(v, n);
        return r === (below ? x - 1n : x) && r ** BigInt(n) <= v && (r + 1n) ** BigInt(n) > v;
      }),
      { numRuns: 60 },
    );
  });

  it('refuses an APY that is not a plain decimal fraction', () => {
    for (const bad of ['-0.1', '1e-2', '0.05%', '', 'abc', '0.1234567890123456789']) expect(() => dailyRate(bad)).toThrow(RangeError);
  });
});

describe('projection', () => {
  it('is monotonic in the days and in the balance', () => {
    fc.assert(
      fc.property(balanceArb, apyArb, fc.integer({ min: 0, max: 200 }), fc.bigInt({ min: 0n, max: 10n ** 20n }), (b, apy, d, extra) => {
        const now = projectBalance(b, apy, d);
        return projectBalance(b, apy, d + 1) >= now && projectBalance(b + extra, apy, d) >= now;
      }),
      { numRuns: 60 },
    );
  });

  it('is never less than the balance (so never negative)', () => {
    fc.assert(fc.property(balanceArb, apyArb, fc.integer({ min: 0, max: 100 }), (b, apy, d) => projectBalance(b, apy, d) >= b), { numRuns: 60 });
  });

  it('is never more than the exact real value b·(1+a)^(d/365)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 24n }), apyArb, fc.integer({ min: 0, max: 40 }), (b, apy, d) => notAboveExact(projectBalance(b, apy, d), b, apy, d)),
      { numRuns: 30 },
    );
  });

  // Each day's floor loses less than one base unit, and a unit lost early would have earned interest
  // for the rest of the year: the shortfall is below 365 units, each grown by at most (1 + a).
  it('365 days at APY a ends within one base unit per day (grown by the year) below balance × (1 + a)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 27n }), apyArb, (b, apy) => {
        const { num, den } = parseApy(apy);
        const exactFloor = (b * (den + num)) / den; // floor of the real b(1+a)
        const got = projectBalance(b, apy, 365);
        const bound = (365n * (den + num) + den - 1n) / den;
        return got <= exactFloor && exactFloor - got <= bound;
      }),
      { numRuns: 30 },
    );
  });

  it('a known case: 1 ETH at 5 % for 30 days, 18 wei below the exact 1.004018201891974921…', () => {
    expect(projectBalance(10n ** 18n, '0.05', 30)).toBe(1004018201891974903n);
  });
});
