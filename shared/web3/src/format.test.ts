import { coinAmountText, formatCoinUnits, formatDay, formatDecimal, formatPercent, formatUsd } from './format';

describe('formats for people (spec §9)', () => {
  it('US dollars: a space after the symbol, grouped, two places; Russian punctuation under /ru', () => {
    expect(formatUsd('1234.56', 'en')).toBe('$ 1,234.56');
    expect(formatUsd('1234.5', 'en')).toBe('$ 1,234.50');
    expect(formatUsd('0', 'en')).toBe('$ 0.00');
    expect(formatUsd('-12.3', 'en')).toBe('-$ 12.30');
    expect(formatUsd('1234567.891', 'ru')).toBe('$ 1\u00a0234\u00a0567,89');
    // Far beyond a float's 2^53: still exact.
    expect(formatUsd('123456789012345678901.99', 'en')).toBe('$ 123,456,789,012,345,678,901.99');
  });

  it('percent: a space before the sign', () => {
    expect(formatPercent('0.125', 'en')).toBe('12.5 %');
    expect(formatPercent('0.08', 'en')).toBe('8 %');
    expect(formatPercent('0.076961', 'en')).toBe('7.69 %');
    expect(formatPercent('0.076961', 'ru')).toBe('7,69 %');
    expect(formatPercent('1.5', 'en')).toBe('150 %');
    expect(formatPercent('0', 'en')).toBe('0 %');
  });

  it('coin amounts are cut, never rounded up, and dates are YYYY-MM-DD', () => {
    expect(formatCoinUnits(1_999_999_999_999_999_999n, 18, 'en')).toBe('1.999999');
    expect(formatCoinUnits('100013368', 6, 'ru')).toBe('100,013368');
    expect(formatDecimal('1000', 'en')).toBe('1,000');
    expect(formatDay('2026-11-22T23:59:59.000Z')).toBe('2026-11-22');
    expect(formatDay(new Date(Date.UTC(2026, 0, 5)))).toBe('2026-01-05');
  });
});

describe('coinAmountText (issue 27, finding 4: precision by magnitude, the full figure kept)', () => {
  it('finding 4: rounds to six significant digits, at least two places from one coin up, on the exact decimal', () => {
    expect(coinAmountText(1179999999999999800n, 18, 'en')).toEqual({ short: '1.18', full: '1.1799999999999998', rounded: true });
    expect(coinAmountText(12345678912345678912345n, 18, 'en')).toEqual({ short: '12,345.68', full: '12,345.678912345678912345', rounded: true });
    expect(coinAmountText(1234567n, 18, 'ru')).toEqual({ short: '0,00000000000123457', full: '0,000000000001234567', rounded: true });
    expect(coinAmountText(123456n, 18, 'ru')).toEqual({ short: '0,000000000000123456', full: '0,000000000000123456', rounded: false });
    expect(coinAmountText(1234567891n, 18, 'en')).toEqual({ short: '0.00000000123457', full: '0.000000001234567891', rounded: true });
    expect(coinAmountText(1500000n, 6, 'ru')).toEqual({ short: '1,5', full: '1,5', rounded: false });
    expect(coinAmountText(0n, 18, 'en')).toEqual({ short: '0', full: '0', rounded: false });
    expect(coinAmountText(-2500000000000000001n, 18, 'en').short).toBe('-2.5');
  });
});
