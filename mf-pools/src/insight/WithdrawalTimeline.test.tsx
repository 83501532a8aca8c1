import { apiMessages, type WithdrawalStatus } from '@app/contracts';
import { steps } from './WithdrawalTimeline';

/** Keys and their values, so the test reads which words each step took. */
const t = (key: string, o?: Record<string, unknown>) => (o ? `${key} ${JSON.stringify(o)}` : key);
const HASH = `0x${'ab'.repeat(32)}`;
const base: WithdrawalStatus = {
  id: 1, pool: 'coin', currency: 'ETH', amount: '10', fee: '1', receive: '9', status: 'requested', to: null, transaction: null,
  confirmations: 0, confirmationsRequired: 2, reason: null, createdAt: '2026-01-02T03:04:05.000Z', paidAt: null,
};
const shape = (w: WithdrawalStatus) => steps(w, t, 'en').map((s) => [s.key, s.state, s.link ?? null]);

describe('withdrawal timeline (issue 27, finding 5)', () => {
  it('finding 5: requested → sending → paid, the paid step carrying the explorer link', () => {
    expect(shape(base)).toEqual([['requested', 'done', null], ['sending', 'todo', null], ['paid', 'todo', null]]);
    expect(shape({ ...base, status: 'sending', transaction: HASH, confirmations: 1 })).toEqual([
      ['requested', 'done', null], ['sending', 'current', `https://etherscan.io/tx/${HASH}`], ['paid', 'todo', null],
    ]);
    const paid = steps({ ...base, status: 'paid', transaction: HASH, paidAt: '2026-01-03T00:00:00.000Z' }, t, 'en');
    expect(paid.map((s) => [s.key, s.state, s.link ?? null])).toEqual([['requested', 'done', null], ['sending', 'done', null], ['paid', 'current', `https://etherscan.io/tx/${HASH}`]]);
    expect(paid[2]!.text).toBe('withdrawals.timeline.paid {"date":"2026-01-03"}');
  });

  it('finding 5: a waiting step shows while it holds the withdrawal: approval, funds or a hold with its end', () => {
    expect(shape({ ...base, status: 'awaiting_approval' })[1]).toEqual(['awaiting_approval', 'current', null]);
    expect(shape({ ...base, status: 'waiting_funds' })[1]).toEqual(['waiting_funds', 'current', null]);
    const held = steps({ ...base, heldUntil: '2026-01-05T06:07:00.000Z' }, t, 'en')[1]!;
    expect(held.key).toBe('held');
    expect(held.text).toContain('UTC');
  });

  it('finding 5: returned says its reason in words, in the page language', () => {
    const returned = steps({ ...base, status: 'returned', reason: apiMessages.withdrawalReturnedCancelled }, t, 'ru');
    expect(returned.map((s) => s.key)).toEqual(['requested', 'returned']);
    expect(returned[1]!.text).toMatch(/^withdrawals\.timeline\.returned \{"reason":"[^"]*[а-я]/);
  });
});
