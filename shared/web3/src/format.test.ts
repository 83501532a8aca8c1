import { coinAmountText, formatCoinUnits, formatDay, formatDecimal, formatPercent, formatUsd } from './format';

describe('formats for people (spec §9)', () => {
  it('US dollars: a (no-break) space after the symbol, grouped, two places; Russian punctuation under /ru', () => {
    expect(formatUsd('1234.56', 'en')).toBe('$\u00a01,234.56');
    expect(formatUsd('1234.5', 'en')).toBe('$\u00a01,234.50');
    expect(formatUsd('0', 'en')).toBe('$\u00a00.00');
    expect(formatUsd('-12.3', 'en')).toBe('-$\u00a012.30');
    expect(formatUsd('1234567.891', 'ru')).toBe('$\u00a01\u00a0234\u00a0567,89');
    // Far beyond a float's 2^53: still exact.
    expect(formatUsd('123456789012345678901.99', 'en')).toBe('$\u00a0123,456,789,012,345,678,901.99');
  });

  it('percent: a (no-break) space before the sign', () => {
    expect(formatPercent('0.125', 'en')).toBe('12.5\u00a0%');
    expect(formatPercent('0.08', 'en')).toBe('8\u00a0%');
    expect(formatPercent('0.076961', 'en')).toBe('7.69\u00a0%');
    expect(formatPercent('0.076961', 'ru')).toBe('7,69\u00a0%');
    expect(formatPercent('1.5', 'en')).toBe('150\u00a0%');
    expect(formatPercent('0', 'en')).toBe('0\u00a0%');
  });

  it('coin amounts are cut, never rounded up, and dates are YYYY-MM-DD', () => {
    expect(formatCoinUnits(1_999_999_999_999_999_999n, 18, 'en')).toBe('1.999999');
    expect(formatCoinUnits('100013368', 6, 'ru')).toBe('100,013368');
    expect(formatDecimal('1000', 'en')).toBe('1,000');
    expect(formatDay('2026-11-22T23:59:59.000Z')).toBe('2026-11-22');
    expect(formatDay(new Date(Date.UTC(2026, 0, 5)))).toBe('2026-01-05');
  });
});

describe('issue 27, finding 4: no break between a number and its sign, one decimal separator per language', () => {
  it('finding 4: the space beside "$" and "%" is a no-break space, and each language keeps its one decimal separator', () => {
    const NBSP = String.fromCharCode(0xa0);
    for (const [lang, point, other] of [['en', '.', ','], ['ru', ',', '.']] as const) {
      const usd = formatUsd('1234567.5', lang);
      const percent = formatPercent('0.0725', lang);
      // The sign and its figure are joined by a no-break space, never a breaking one.
      expect(usd.startsWith(`$${NBSP}`)).toBe(true);
      expect(percent.endsWith(`${NBSP}%`)).toBe(true);
      expect(formatUsd('-0.5', lang).startsWith(`-$${NBSP}`)).toBe(true);
      // No breaking space anywhere: a line can only wrap around the whole figure.
      expect(/[ \t\n]/.test(usd + percent)).toBe(false);
      expect(usd.endsWith(`${point}50`)).toBe(true);
      expect(percent).toBe(`7${point}25${NBSP}%`);
      // Groups in English are commas, so only the Russian figure is free of the other separator.
      if (lang === 'ru') expect(usd.includes(other)).toBe(false);
    }
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
