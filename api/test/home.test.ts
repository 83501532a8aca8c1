import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { PoolsOverviewResponse } from '@app/contracts';
import { dailyRate } from '@app/web3/testing';
import { deposits } from '../src/db/schema';
import { depositTransaction } from '../src/deposits/credit';
import { rows } from '../src/db/rows';
import { post } from '../src/ledger';
import { setPrices } from '../src/pricing/prices';
import { call, register, startTestApp, type TestApp } from './helpers';
import { ETH, USDT, operator, today } from './money-helpers';

/** Issue 27, "an investor's experience": the public home page's figures come from the books. */
jest.setTimeout(120_000);
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await setPrices(t.app.services.db, t.app.services.config.priceSource, { ETH: '3000', USDT: '1' });
});
afterAll(() => t?.close());

const overview = async (lang?: string) => {
  const r = await call(t.app, 'GET', '/api/v1/pools/overview', lang ? { headers: { 'accept-language': lang } } : {});
  expect(r.status).toBe(200);
  return r.body as PoolsOverviewResponse;
};

let tx = 0;
async function credit(userId: string, pool: string, currency: 'ETH' | 'USDT', amount: bigint) {
  const txHash = `0x${(++tx).toString(16).padStart(64, 'a')}`;
  const toAddress = '0x0e9971c0005d91336c1441b8f03c1c4fe5fb4584';
  const [d] = await t.app.services.db.insert(deposits).values({ userId, pool, currency, amount: amount.toString(), txHash, toAddress, status: 'credited', creditedAt: new Date() }).returning();
  await post(t.app.services.db, depositTransaction({ id: d!.id, user_id: userId, pool, currency, amount: amount.toString(), chain_id: 1, tx_hash: txHash, log_index: 0, to_address: toAddress }, new Date()));
}

describe('public home page', () => {
  it("finding 1: a visitor reads each pool's APY, APR, value locked on the books, risk with its reason and the fees, without signing in", async () => {
    expect(await operator(t.app, 'apy', 'set', 'coin', '0.1', '--from', today())).toMatchObject({ code: 0 });
    expect(await operator(t.app, 'payouts', 'set', 'USDT', '--fee', String(2n * USDT), '--minimum', String(10n * USDT))).toMatchObject({ code: 0 });
    const a = await register(t.app);
    const b = await register(t.app);
    // 1.5 ETH and 250.000001 USDT in the coin pool, 3 wei in the stable pool (below a cent: $0.00).
    await credit(a.user.id as string, 'coin', 'ETH', (3n * ETH) / 2n);
    await credit(b.user.id as string, 'coin', 'USDT', 250n * USDT + 1n);
    await credit(b.user.id as string, 'stable', 'ETH', 3n);

    const en = await overview();
    expect(en.pools.map((p) => p.pool)).toEqual(['stable', 'coin', 'dex']);
    const coin = en.pools.find((p) => p.pool === 'coin')!;
    // 1.5 ETH at $3000 = $4500.00; 250.000001 USDT at $1 = $250.00 (rounded down to the cent).
    expect(coin.tvlUsd).toBe('4750.00');
    expect(en.pools.find((p) => p.pool === 'stable')!.tvlUsd).toBe('0.00');
    expect(en.pools.find((p) => p.pool === 'dex')!.tvlUsd).toBe('0.00');
    expect(coin.apy).toBe('0.1');
    // APR = 365 × the exact daily rate of 10 % a year, in six places rounded down.
    const aprMicro = (365n * dailyRate(1n, 10n) * 10n ** 6n) / 10n ** 30n;
    expect(coin.apr).toBe(`0.${String(aprMicro).padStart(6, '0')}`.replace(/0+$/, ''));
    expect(Number(aprMicro)).toBeGreaterThan(95_000);
    expect(Number(aprMicro)).toBeLessThan(100_000);
    for (const p of en.pools) {
      expect(p.riskReason.length).toBeGreaterThan(20);
      expect(p.description.length).toBeGreaterThan(10);
    }
    expect(en.depositFee).toBe('0');
    expect(en.withdrawal).toContainEqual({ currency: 'USDT', fee: String(2n * USDT), minimum: String(10n * USDT) });
    expect(en.decimals.USDT).toBe(6);

    // Russian: the pool's own words and its reason in Russian, the same figures.
    const ru = await overview('ru');
    const ruCoin = ru.pools.find((p) => p.pool === 'coin')!;
    expect(ruCoin.title).toBe('Пул монет');
    expect(ruCoin.riskReason).toMatch(/[а-я]/);
    expect(ruCoin.riskReason).not.toBe(coin.riskReason);
    expect({ ...ruCoin, title: '', description: '', riskReason: '' }).toEqual({ ...coin, title: '', description: '', riskReason: '' });
  });

  it('finding 1: migration 0029 gives the pools of an existing database their risk reasons in both languages', async () => {
    const db = t.app.services.db;
    const before = await rows(db, sql`select p.name, p.risk_reason, pt.risk_reason as ru from pools p join pool_texts pt on pt.pool = p.name and pt.lang = 'ru' order by p.name`);
    await db.execute(sql`update pools set risk_reason = ''`);
    await db.execute(sql`update pool_texts set risk_reason = ''`);
    const migration = readFileSync(join(__dirname, '../drizzle/0029_pool_risk_reason.sql'), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) await db.execute(sql.raw(statement));
    expect(await rows(db, sql`select p.name, p.risk_reason, pt.risk_reason as ru from pools p join pool_texts pt on pt.pool = p.name and pt.lang = 'ru' order by p.name`)).toEqual(before);
  });
});
