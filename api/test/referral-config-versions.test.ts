import { configOn, setConfig } from '../src/referral/config';
import { startTestApp, type TestApp } from './helpers';

/**
 * A referral programme version set in one step changes only the parts it names; the others are
 * those in force on its own first day. A version already approved for a later day must not leak
 * into an earlier one, and the later one keeps what it was approved with.
 */
let t: TestApp;
const db = () => t.app.services.db;
const TODAY = '2030-01-01';
const A = { levels: [1000, 300, 200], vestingDays: 10, effectiveFrom: '2030-02-01' };
const B = { levels: [500, 200, 100], vestingDays: 20, effectiveFrom: '2030-04-01' };
const RANKS = [
  { title: 'Starter', capitalUsd: '0', bonusBps: 0 },
  { title: 'Gold', capitalUsd: '50000', bonusBps: 100 },
];

beforeAll(async () => {
  t = await startTestApp({ DEPOSIT_JOB_INTERVAL_MS: '0' });
  await setConfig(db(), 'test', { ...A, ranks: RANKS, currency: 'USDT' }, TODAY);
  await setConfig(db(), 'test', B, TODAY);
});
afterAll(() => t?.close());

const rates = (c: { levels: { rewardBps: number }[] }) => c.levels.map((l) => l.rewardBps);

test('a version between two others takes the parts it does not name from the one in force on its day', async () => {
  const between = '2030-03-01';
  const made = await setConfig(db(), 'test', { vestingDays: 5, effectiveFrom: between }, TODAY);
  expect(made.effectiveFrom).toBe(between);
  expect(rates(made)).toEqual(A.levels);
  expect(made.vestingDays).toBe(5);
  expect(made.ranks.map((r) => r.title)).toEqual(RANKS.map((r) => r.title));

  const onThatDay = await configOn(db(), between);
  expect(rates(onThatDay)).toEqual(A.levels);
  expect(onThatDay.vestingDays).toBe(5);
  // The day before it, A; from B's day on, B unchanged.
  const before = await configOn(db(), '2030-02-28');
  expect([rates(before), before.vestingDays]).toEqual([A.levels, A.vestingDays]);
  const later = await configOn(db(), B.effectiveFrom);
  expect([rates(later), later.vestingDays]).toEqual([B.levels, B.vestingDays]);
});

test('a version after the latest takes the latest’s parts', async () => {
  const made = await setConfig(db(), 'test', { levels: [700, 100], effectiveFrom: '2030-05-01' }, TODAY);
  expect(rates(made)).toEqual([700, 100]);
  expect(made.vestingDays).toBe(B.vestingDays);
});
