import {
  AmountError,
  ethToWei,
  formatUnits,
  isDecimalAmount,
  parseUnits,
  roundDecimal,
  unitsToUsd,
  usdToUnits,
  weiToEth,
} from './amounts';

describe('parseUnits', () => {
  it('scales a decimal string by the token decimals', () => {
    expect(parseUnits('1.5', 6)).toBe(1_500_000n);
    expect(parseUnits('0.000001', 6)).toBe(1n);
    expect(parseUnits('42', 0)).toBe(42n);
    expect(parseUnits('.5', 2)).toBe(50n);
    expect(parseUnits('5.', 2)).toBe(500n);
    expect(parseUnits(' 7 ', 1)).toBe(70n);
    expect(parseUnits('0', 18)).toBe(0n);
  });

  it('keeps precision far beyond a float', () => {
    expect(parseUnits('123456789012345678901234567890.123456789012345678', 18)).toBe(
      123456789012345678901234567890123456789012345678n,
    );
    // 0.1 + 0.2 style errors cannot happen: 0.3 is exactly 3 * 10^17 wei.
    expect(parseUnits('0.1', 18) + parseUnits('0.2', 18)).toBe(parseUnits('0.3', 18));
  });

  it('refuses extra digits unless told how to round', () => {
    expect(() => parseUnits('1.0000001', 6)).toThrow(AmountError);
    expect(parseUnits('1.0000001', 6, 'up')).toBe(1_000_001n);
    expect(parseUnits('1.0000009', 6, 'down')).toBe(1_000_000n);
    // trailing zeros are not extra precision
    expect(parseUnits('1.500000000', 6)).toBe(1_500_000n);
  });

  it('refuses what is not a plain non-negative decimal', () => {
    for (const bad of ['', '.', '-1', '+1', '1e18', '1,5', '1 000', 'abc', '0x10', 'NaN', 'Infinity', '1.2.3']) {
      expect(() => parseUnits(bad, 6)).toThrow(AmountError);
      expect(isDecimalAmount(bad)).toBe(false);
    }
  });

  it('refuses nonsense decimals', () => {
    expect(() => parseUnits('1', -1)).toThrow(AmountError);
    expect(() => parseUnits('1', 1.5)).toThrow(AmountError);
    expect(() => parseUnits('1', 78)).toThrow(AmountError);
  });
});

describe('formatUnits', () => {
  it('prints base units as a decimal without trailing zeros', () => {
    expect(formatUnits(1_500_000n, 6)).toBe('1.5');
    expect(formatUnits(1n, 6)).toBe('0.000001');
    expect(formatUnits(0n, 18)).toBe('0');
    expect(formatUnits(10n ** 18n, 18)).toBe('1');
    expect(formatUnits(123n, 0)).toBe('123');
    expect(formatUnits(-1_500_000n, 6)).toBe('-1.5');
  });

  it('cuts the fraction toward zero when asked for fewer digits', () => {
    expect(formatUnits(1_999_999n, 6, 2)).toBe('1.99');
    expect(formatUnits(1_000_001n, 6, 2)).toBe('1');
    expect(formatUnits(-1_999_999n, 6, 2)).toBe('-1.99');
    expect(formatUnits(-1n, 6, 2)).toBe('0');
    expect(formatUnits(1_500_000n, 6, 10)).toBe('1.5');
  });

  it('round-trips with parseUnits', () => {
    for (const text of ['0', '1', '0.000000000000000001', '98765.4321', '1000000']) {
      expect(formatUnits(parseUnits(text, 18), 18)).toBe(text);
    }
  });
});

describe('ETH amounts (spec §7: scaled by 10^18, rounded up)', () => {
  it('rounds sub-wei amounts up, never down', () => {
    expect(ethToWei('1')).toBe(10n ** 18n);
    expect(ethToWei('0.0000000000000000001')).toBe(1n);
    expect(ethToWei('0.0400000000000000001')).toBe(40_000_000_000_000_001n);
    expect(weiToEth(40_000_000_000_000_001n)).toBe('0.040000000000000001');
  });
});

describe('usdToUnits', () => {
  it('converts dollars to coin base units at the pool estimate', () => {
    expect(usdToUnits('100', '2500', 18)).toBe(parseUnits('0.04', 18));
    expect(usdToUnits('10.5', '1', 6)).toBe(10_500_000n);
    expect(usdToUnits('10.5', '1.00', 18)).toBe(parseUnits('10.5', 18));
    expect(usdToUnits('0', '2500', 18)).toBe(0n);
  });

  it('rounds up so the deposit is never worth less than asked', () => {
    // $1 at $3 per SOL is 0.333333333(3) SOL: 9 decimals, last unit rounded up
    expect(usdToUnits('1', '3', 9)).toBe(333_333_334n);
    // $0.1 of a stablecoin priced slightly above a dollar
    expect(usdToUnits('0.1', '1.0001', 6)).toBe(99_991n);
  });

  it('handles prices with many decimal places and large amounts exactly', () => {
    // $10^9 / $0.000000123456789 = 10^42 / 123456789 wei-like units, not a whole number: rounded up.
    const units = usdToUnits('1000000000', '0.000000123456789', 18);
    expect(units).toBe(10n ** 42n / 123_456_789n + 1n);
    expect(units * 123_456_789n).toBeGreaterThan(10n ** 42n);
    expect((units - 1n) * 123_456_789n).toBeLessThan(10n ** 42n);
  });

  it('refuses a zero or malformed price', () => {
    expect(() => usdToUnits('1', '0', 18)).toThrow(AmountError);
    expect(() => usdToUnits('1', '0.000', 18)).toThrow(/price is zero/);
    expect(() => usdToUnits('1', '-5', 18)).toThrow(AmountError);
    expect(() => usdToUnits('-1', '5', 18)).toThrow(AmountError);
  });
});

describe('unitsToUsd', () => {
  it('values base units in dollars to the input precision, rounded down', () => {
    expect(unitsToUsd(parseUnits('0.04', 18), '2500', 18)).toBe('100');
    expect(unitsToUsd(333_333_334n, '3', 9)).toBe('1');
    expect(unitsToUsd(10_590_000n, '1', 6)).toBe('10.5');
    expect(unitsToUsd(10_590_000n, '1', 6, 2)).toBe('10.59');
    expect(unitsToUsd(0n, '2500', 18)).toBe('0');
  });

  it('gives a Max that a deposit of the same dollars can always pay', () => {
    const cases: [bigint, string, number][] = [
      [1n, '2500.37', 18],
      [123_456_789n, '3.3333', 9],
      [999_999n, '0.9999', 6],
      [parseUnits('1.23456789', 18), '1234.5678', 18],
      [7n, '1', 0],
    ];
    for (const [balance, price, decimals] of cases) {
      const max = unitsToUsd(balance, price, decimals);
      expect(usdToUnits(max, price, decimals)).toBeLessThanOrEqual(balance);
    }
  });

  it('refuses negative units', () => {
    expect(() => unitsToUsd(-1n, '1', 6)).toThrow(AmountError);
  });
});

describe('roundDecimal', () => {
  it('rounds typed dollars to the input precision', () => {
    expect(roundDecimal('12.34', 1)).toBe('12.3');
    expect(roundDecimal('12.34', 1, 'up')).toBe('12.4');
    expect(roundDecimal('12', 1)).toBe('12');
  });
});
