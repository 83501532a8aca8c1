import { parseUnits } from '@app/web3';
import { ETH_GAS_RESERVE, depositUnits, formatUsd, maxUsd, parseUsdInput, usdInputText } from './amounts';
import { checkDeposit } from './checks';
import { MISSING_POOL_COINS, poolCoins } from '../pool/poolCoins';

const POOL = '0x1111111111111111111111111111111111111111';
const eth = { currency: 'ETH' as const, address: POOL, toFiat: '3000' };
const usdt = { currency: 'USDT' as const, address: POOL, toFiat: '1' };

describe('the dollar input (spec §5: prefix "$ ", precision 1, minimum 0, no negatives)', () => {
  it.each([
    ['$ 12.34', '12.3'],
    ['12.34', '12.3'],
    ['-5', '5'],
    ['$ -0.5', '0.5'],
    ['1e5', '15'],
    ['007', '7'],
    ['.5', '0.5'],
    ['5.', '5.'],
    ['1.2.3', '1.2'],
    ['$ ', ''],
    ['abc', ''],
  ])('reads %p as %p', (typed, amount) => {
    expect(parseUsdInput(typed)).toBe(amount);
  });

  it('shows the prefix with an amount, nothing without one', () => {
    expect(usdInputText('12.3')).toBe('$ 12.3');
    expect(usdInputText('')).toBe('');
    expect(parseUsdInput(usdInputText('12.3') + '4')).toBe('12.3');
  });
});

describe('dollars to the coin at the pool estimate', () => {
  it('scales ETH by 10^18 and rounds up, so the deposit is not short', () => {
    // 100 / 3000 = 0.0333… ETH: the last wei is rounded up.
    expect(depositUnits('100', eth)).toBe(33333333333333334n);
    expect(depositUnits('3000', eth)).toBe(10n ** 18n);
    expect(depositUnits('0.1', eth)).toBe(33333333333334n);
  });

  it('scales USDT by its 6 decimals', () => {
    expect(depositUnits('25.5', usdt)).toBe(25_500_000n);
  });

  it('gives nothing for no amount, zero, or a coin without a price', () => {
    expect(depositUnits('', eth)).toBeNull();
    expect(depositUnits('0.0', eth)).toBeNull();
    expect(depositUnits('10', { ...eth, toFiat: '0' })).toBeNull();
  });

  it('formats dollars with a space after the symbol', () => {
    expect(formatUsd('1234567.5', 'en')).toBe('$\u00a01,234,567.5');
    expect(formatUsd('12', 'en')).toBe('$\u00a012');
  });
});

describe('Max', () => {
  it('offers what the balance covers, never more', () => {
    const balance = parseUnits('1000', 6);
    expect(maxUsd(balance, usdt)).toBe('1000');
    expect(depositUnits(maxUsd(balance + 99n, usdt), usdt)! <= balance + 99n).toBe(true);
  });

  it('keeps a network fee back on ETH', () => {
    const balance = parseUnits('1', 18);
    const max = maxUsd(balance, eth);
    expect(max).toBe('2994'); // (1 - 0.002) ETH * 3000
    expect(depositUnits(max, eth)! <= balance - ETH_GAS_RESERVE).toBe(true);
    expect(maxUsd(ETH_GAS_RESERVE, eth)).toBe('0');
  });
});

describe('the checks before a deposit, in order', () => {
  const ready = { connected: true, chainId: 1, account: '0xabc', balances: { ETH: parseUnits('1', 18).toString(), USDT: '0' } };

  it('wants a wallet first, then network 1, then an amount, then the money', () => {
    expect(checkDeposit({ connected: false, chainId: 56, account: null, balances: {} }, '', eth)).toEqual({ ok: false, reason: 'notConnected' });
    expect(checkDeposit({ ...ready, chainId: 56 }, '', eth)).toEqual({ ok: false, reason: 'unsupportedNetwork', chainId: 56 });
    expect(checkDeposit(ready, '', eth)).toEqual({ ok: false, reason: 'amountRequired' });
    expect(checkDeposit(ready, '0.0', eth)).toEqual({ ok: false, reason: 'amountRequired' });
    expect(checkDeposit(ready, '3000.1', eth)).toEqual({ ok: false, reason: 'notEnoughMoney', coin: 'ETH' });
    expect(checkDeposit(ready, '10', usdt)).toEqual({ ok: false, reason: 'notEnoughMoney', coin: 'USDT' });
    expect(checkDeposit(ready, '3000', eth)).toEqual({ ok: true, units: 10n ** 18n });
  });

  it('refuses a coin the pool cannot take (spec §3 default: ETH at 0x0 with no price)', () => {
    expect(checkDeposit(ready, '10', MISSING_POOL_COINS[0]!)).toEqual({ ok: false, reason: 'coinUnavailable', coin: 'ETH' });
  });
});

describe('the coins of a pool', () => {
  it('are the pool’s addresses with their estimates, in the server’s order', () => {
    const coins = poolCoins({ pool: 'stable', title: 'Stable', apyBps: 1, addresses: { USDT: POOL, BUSD: POOL, XYZ: POOL }, estimate: { USDT: '1' }, deposited: {}, earned: {} });
    expect(coins).toEqual([
      { currency: 'USDT', address: POOL, toFiat: '1' },
      { currency: 'BUSD', address: POOL, toFiat: '0' },
    ]);
  });

  it('default to ETH with toFiat 0 at 0x0 when the pool is missing (spec §3)', () => {
    expect(poolCoins(null)).toEqual([{ currency: 'ETH', address: '0x0000000000000000000000000000000000000000', toFiat: '0' }]);
  });
});
