import { auditCsv } from './screens/AuditLog';
import { solvencyBps } from './screens/Overview';
import { bodyOf, levelsText, ranksText } from './screens/SettingChanges';
import { apyPercent, bpsPercent, coinText, hoursSince, percentToBps, percentToFraction } from './format';

describe('the console\'s figures (issue 26)', () => {
  it('shows amounts with every digit, in the currency\'s units, and base units for a currency it does not know', () => {
    expect(coinText('700000000000000001', 'ETH', 'en')).toBe('0.700000000000000001\u00a0ETH');
    expect(coinText('1234567890', 'USDT', 'en')).toBe('1,234.56789\u00a0USDT');
    expect(coinText('-5', 'XYZ', 'en')).toBe('-5\u00a0XYZ');
  });

  it('reads percentages from their digits', () => {
    expect(bpsPercent(725n, 'en')).toBe('7.25\u00a0%');
    expect(bpsPercent(800n, 'en')).toBe('8\u00a0%');
    expect(bpsPercent(10_050n, 'ru', 2)).toBe('100,50\u00a0%');
    expect(apyPercent('0.072500000000000000', 'en')).toBe('7.25\u00a0%');
    expect(apyPercent('0.18', 'en')).toBe('18\u00a0%');
    expect(apyPercent('1.5', 'en')).toBe('150\u00a0%');
  });

  it('turns a typed percentage into the fraction the API keeps, by its digits, and refuses anything else', () => {
    expect(percentToFraction('7.25')).toBe('0.0725');
    expect(percentToFraction('7,25')).toBe('0.0725');
    expect(percentToFraction('12')).toBe('0.12');
    expect(percentToFraction('150')).toBe('1.5');
    expect(percentToFraction('0')).toBe('0');
    expect(percentToFraction('0.000001')).toBe('0.00000001');
    for (const wrong of ['', '-1', '5 %', '1e2', '.5']) expect(percentToFraction(wrong)).toBeUndefined();
    // Back again, as the schedule shows it.
    expect(apyPercent(percentToFraction('8.125')!, 'en')).toBe('8.125\u00a0%');
  });

  it('the solvency ratio per currency: reserves over what is owed, rounded down to a basis point; unknown when a balance is unread or nothing is owed', () => {
    const row = (currency: string, onChain: string | null, liabilities: string) => ({ pool: 'coin', currency, address: '0x1', onChain, books: '0', difference: null, liabilities, covered: null });
    // 3 held against 2 + 1 owed: 10000 bps; 2 against 3: 6666.66… → 6666.
    expect(solvencyBps([row('ETH', '2', '2'), row('ETH', '1', '1'), row('USDT', '2', '3'), row('USDC', null, '5'), row('BNB', '7', '0')])).toEqual([
      { currency: 'ETH', bps: 10_000n },
      { currency: 'USDT', bps: 6666n },
      { currency: 'USDC', bps: null },
      { currency: 'BNB', bps: null },
    ]);
  });

  it('exports the audit log as CSV whose quotes and commas stay inside their cells', () => {
    const csv = auditCsv([{ seq: 7, actor: 'operator:bob', action: 'withdrawal.reject', target: '12', before: null, after: { reason: 'REJECTED: "no", thanks' }, at: '2026-01-02T03:04:05.000Z', hash: 'ab' }]);
    expect(csv).toBe('seq,at,actor,action,target,before,after,hash\r\n"7","2026-01-02T03:04:05.000Z","operator:bob","withdrawal.reject","12","","{""reason"":""REJECTED: \\""no\\"", thanks""}","ab"\r\n');
  });

  it('counts whole hours of age', () => {
    expect(hoursSince('2026-01-01T00:00:00.000Z', Date.parse('2026-01-01T02:59:59.000Z'))).toBe(2);
  });

  it('reads the withdrawal limits and a referral version from the change form, and refuses what it cannot read', () => {
    const form = (fields: Record<string, string>) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fields)) f.set(k, v);
      return f;
    };
    expect(percentToBps('10')).toBe(1000);
    expect(percentToBps('2,5')).toBe(250);
    expect(percentToBps('0.05')).toBe(5);
    for (const wrong of ['', '1000', '1.234', '-1', 'ten']) expect(percentToBps(wrong)).toBeUndefined();

    expect(bodyOf(form({ kind: 'limits', perHour: '2', perDay: '', windowHours: '48' }))).toEqual({ body: { kind: 'limits', perHour: 2, windowHours: 48 } });
    expect(bodyOf(form({ kind: 'limits', perHour: '', perDay: '', windowHours: '' }))).toEqual({ error: 'money.change.invalid.nothing' });
    expect(bodyOf(form({ kind: 'limits', perHour: '1.5' }))).toEqual({ error: 'money.change.invalid.count' });

    const referral = { kind: 'referral', effectiveFrom: '2027-01-02', levels: '10  3 2,5', ranks: 'Starter; 0; 0\n\nBronze; 10000,50; 0.5', currency: '', vestingDays: '14' };
    expect(bodyOf(form(referral))).toEqual({
      body: {
        kind: 'referral',
        effectiveFrom: '2027-01-02',
        levels: [1000, 300, 250],
        ranks: [
          { title: 'Starter', capitalUsd: '0', bonusBps: 0 },
          { title: 'Bronze', capitalUsd: '10000.50', bonusBps: 50 },
        ],
        vestingDays: 14,
      },
    });
    expect(bodyOf(form({ ...referral, levels: '10 %' }))).toEqual({ error: 'money.change.invalid.levels' });
    expect(bodyOf(form({ ...referral, ranks: 'Bronze; 10000' }))).toEqual({ error: 'money.change.invalid.ranks' });
    expect(bodyOf(form({ kind: 'referral', effectiveFrom: '2027-01-02', levels: '', ranks: '', currency: '', vestingDays: '' }))).toEqual({ error: 'money.change.invalid.nothing' });

    // As the preview shows a version's levels and ranks.
    expect(levelsText('1000 250', 'en')).toBe('10\u00a0% · 2.5\u00a0%');
    expect(ranksText('[{"title":"Bronze","capitalUsd":"10000.5","bonusBps":50}]', 'ru', (r) => `${r.title} ${r.capital} +${r.bonus}`)).toBe('Bronze 10\u00a0000,5\u00a0USD +0,5\u00a0%');
  });
});
