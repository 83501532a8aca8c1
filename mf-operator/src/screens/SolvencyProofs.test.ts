import { snapshotBps } from './SolvencyProofs';

describe('the console\'s proof-of-solvency figures (issues 24 and 26)', () => {
  it('a snapshot\'s ratio counts only the reserves it publishes (proven addresses), in bigint basis points rounded down', () => {
    const header = { version: 'pol-v1' as const, snapshotId: 3, takenAt: '2026-01-01T00:00:00.000Z', chainId: 1 as const, blockNumber: 9, blockHash: `0x${'a'.repeat(64)}`, currencies: ['ETH', 'USDT', 'BNB'], decimals: [18, 6, 18], root: `0x${'b'.repeat(64)}`, sums: ['3000000000000000000', '3', '0'], leafCount: 4 };
    const reserve = (address: string, role: 'pool' | 'cold', currency: string, balance: string) => ({ address, role, pool: role === 'pool' ? 'coin' : null, currency, balance });
    const s = {
      header,
      signature: '0x',
      signer: `0x${'1'.repeat(40)}`,
      addresses: [],
      reserves: [reserve(`0x${'2'.repeat(40)}`, 'pool', 'ETH', '1000000000000000001'), reserve(`0x${'3'.repeat(40)}`, 'cold', 'ETH', '2000000000000000000'), reserve(`0x${'2'.repeat(40)}`, 'pool', 'USDT', '2')],
    };
    // 3.000…001 held against 3 owed: 10000 bps (the extra wei rounds down); 2 against 3: 6666; nothing owed: null.
    expect(snapshotBps(s)).toEqual([
      { currency: 'ETH', reserves: 3_000_000_000_000_000_001n, bps: 10_000n },
      { currency: 'USDT', reserves: 2n, bps: 6666n },
      { currency: 'BNB', reserves: 0n, bps: null },
    ]);
  });
});
