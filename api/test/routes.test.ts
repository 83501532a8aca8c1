import { apiMessages as M, apiRoutes, apiBasePath } from '@app/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { deposits, pools, poolTexts, users } from '../src/db/schema';
import { depositTransaction } from '../src/deposits/credit';
import { post } from '../src/ledger';
import { call, register, startTestApp, type TestApp } from './helpers';

let t: TestApp;
let token: string;
let userId: string;
beforeAll(async () => {
  t = await startTestApp();
  const r = await register(t.app);
  token = r.token;
  userId = (r.user as { id: string }).id;
});
afterAll(() => t?.close());

const TX = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

describe('every call of the contract', () => {
  it('exists under /api/v1 and answers 401 without a token when it needs one', async () => {
    for (const r of Object.values(apiRoutes)) {
      const url = apiBasePath + r.path.replace(':pool', 'stable');
      const res = await t.app.inject({ method: r.method, url, payload: r.method === 'GET' ? undefined : {} });
      expect([url, res.statusCode === 404 && res.json().code === 'NOT_FOUND']).toEqual([url, false]);
      if (r.auth) expect([url, res.statusCode]).toEqual([url, 401]);
    }
  });

  it('is documented in the OpenAPI document at /api/docs', async () => {
    const doc = await call(t.app, 'GET', '/api/docs/json');
    expect(doc.status).toBe(200);
    const paths = Object.keys(doc.body.paths as object);
    for (const r of Object.values(apiRoutes)) expect(paths).toContain(apiBasePath + r.path.replace(/:(\w+)/g, '{$1}'));
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('reference data from the tables', () => {
  it('GET /system/regexp answers the validation patterns', async () => {
    const r = await call(t.app, 'GET', '/api/v1/system/regexp');
    expect(r.status).toBe(200);
    const re = r.body.regExp as Record<string, string>;
    expect(new RegExp(re.password as string).test('Str0ng!pass')).toBe(true);
    expect(new RegExp(re.password as string).test('weak')).toBe(false);
    expect(new RegExp(re.email as string).test('a@b.co')).toBe(true);
  });

  it('GET /currencies lists the seven currencies with decimals and token addresses by chain', async () => {
    const r = await call(t.app, 'GET', '/api/v1/currencies');
    const list = r.body.currencies as { code: string; decimals: number; native: boolean; addresses: Record<string, string> }[];
    expect(list.map((c) => c.code).sort()).toEqual(['BNB', 'BUSD', 'ETH', 'SOL', 'USDC', 'USDT', 'WAVES']);
    expect(list.find((c) => c.code === 'ETH')).toMatchObject({ decimals: 18, native: true });
    expect(Object.keys(list.find((c) => c.code === 'USDT')?.addresses ?? {}).sort()).toEqual(['1', '137', '250', '56']);
    // The same decimals as the token table and the chain.
    expect(list.find((c) => c.code === 'WAVES')).toMatchObject({ decimals: 18 });
    expect(list.find((c) => c.code === 'SOL')).toMatchObject({ decimals: 9 });
  });

  it('GET /faq answers in the asked language', async () => {
    const en = await call(t.app, 'GET', '/api/v1/faq');
    const ru = await call(t.app, 'GET', '/api/v1/faq', { headers: { 'accept-language': 'ru' } });
    expect((en.body.items as unknown[]).length).toBeGreaterThan(0);
    expect((ru.body.items as { question: string }[])[0]?.question).toMatch(/[а-я]/);
  });

  it('GET /pools/{pool}/assets, /strategy, /graph', async () => {
    const assets = await call(t.app, 'GET', '/api/v1/pools/stable/assets');
    expect(assets.body.assets).toEqual(expect.arrayContaining([expect.objectContaining({ currency: 'USDT', shareBps: 4000 })]));
    const strategy = await call(t.app, 'GET', '/api/v1/pools/coin/strategy');
    expect(strategy.body).toMatchObject({ pool: 'coin', riskLevel: 'medium' });
    // Nothing accrued here: no history (api/test/data-honesty.test.ts builds one from the books).
    const graph = await call(t.app, 'GET', '/api/v1/pools/dex/graph');
    expect(graph.body).toEqual({ pool: 'dex', range: 'All', points: [] });
    const bad = await call(t.app, 'GET', '/api/v1/pools/gold/assets');
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ pool: M.invalidValue });
  });

  it('GET /pools/{pool}/strategy answers in the asked language, English where no translation exists', async () => {
    for (const pool of ['stable', 'coin', 'dex']) {
      const [row] = await t.app.services.db.select().from(pools).where(eq(pools.name, pool));
      const en = await call(t.app, 'GET', `/api/v1/pools/${pool}/strategy`);
      expect(en.body).toMatchObject({ title: row!.title, description: row!.description });
      const ru = await call(t.app, 'GET', `/api/v1/pools/${pool}/strategy`, { headers: { 'accept-language': 'ru-RU,ru;q=0.9,en;q=0.8' } });
      const [text] = await t.app.services.db.select().from(poolTexts).where(and(eq(poolTexts.pool, pool), eq(poolTexts.lang, 'ru')));
      expect(ru.body).toEqual({ pool, title: text!.title, description: text!.description, riskLevel: row!.riskLevel });
      expect(ru.body.description).toMatch(/[а-яё]/i);
      expect(ru.body.description).not.toBe(en.body.description);
    }
    // A pool added without a Russian text is still described, in English.
    const [removed] = await t.app.services.db.delete(poolTexts).where(and(eq(poolTexts.pool, 'dex'), eq(poolTexts.lang, 'ru'))).returning();
    try {
      const fallback = await call(t.app, 'GET', '/api/v1/pools/dex/strategy', { headers: { 'accept-language': 'ru' } });
      const [row] = await t.app.services.db.select().from(pools).where(eq(pools.name, 'dex'));
      expect(fallback.body.description).toBe(row!.description);
    } finally {
      await t.app.services.db.insert(poolTexts).values(removed!);
    }
  });

  it('GET /dao/values, /dao/pools, /dao/personal, /dao/rewards', async () => {
    expect((await call(t.app, 'GET', '/api/v1/dao/values', { token })).body.values).toMatchObject({ quorumBps: '2000' });
    const pools = await call(t.app, 'GET', '/api/v1/dao/pools', { token });
    expect((pools.body.items as { pool: string }[]).map((p) => p.pool)).toEqual(['stable', 'coin', 'dex']);
    expect((await call(t.app, 'GET', '/api/v1/dao/personal', { token })).body).toEqual({ votingPower: '0', staked: '0', proposalsVoted: 0 });
    expect((await call(t.app, 'GET', '/api/v1/dao/rewards', { token })).body).toEqual({ items: [], totalUsd: '0' });
  });
});

describe('dashboard', () => {
  // Deposits verified on a real chain: api/test/deposits.test.ts.
  it('refuses a deposit while no wallet is linked to the account', async () => {
    const body = { pool: 'coin', amount: '1500000000000000000', currency: 'ETH', transaction: TX(1) };
    const r = await call(t.app, 'POST', '/api/v1/dashboard/deposit', { token, body });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ message: M.depositNoWallet, code: 'NO_LINKED_WALLET' });
  });

  it('refuses amounts that are not integers in base units', async () => {
    for (const amount of ['1.5', '-1', 1.5, '1e18', '']) {
      const r = await call(t.app, 'POST', '/api/v1/dashboard/deposit', { token, body: { pool: 'coin', amount, currency: 'ETH', transaction: TX(2) } });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.fields as object)).toEqual(['amount']);
    }
    const r = await call(t.app, 'POST', '/api/v1/dashboard/deposit', { token, body: { pool: 'x', amount: '1', currency: 'DOGE', transaction: '0x1' } });
    expect(r.body.fields).toEqual({ pool: M.invalidValue, currency: M.invalidValue, transaction: M.invalidValue });
  });

  it('withdraw: refused before any confirmed deposit, then accepted up to the balance', async () => {
    const body = { pool: 'stable', amount: '1000000', currency: 'USDT' };
    const before = await call(t.app, 'POST', '/api/v1/dashboard/withdraw', { token, body });
    expect(before.status).toBe(400);
    expect(before.body.message).toBe(M.notReplenished);
    // The deposit job credits a deposit thus (api/test/deposits.test.ts does it against the chain).
    const [d] = await t.app.services.db
      .insert(deposits)
      .values({ userId, pool: 'stable', currency: 'USDT', amount: '5000000', txHash: TX(3), status: 'credited', toAddress: '0x8c3229ec621644789d7f61faa82c6d0e5f97d43d' })
      .returning();
    await post(t.app.services.db, depositTransaction({ id: d!.id, user_id: userId, pool: 'stable', currency: 'USDT', amount: '5000000', chain_id: 1, tx_hash: TX(3), log_index: 0, to_address: d!.toAddress }));
    const noWallet = await call(t.app, 'POST', '/api/v1/dashboard/withdraw', { token, body });
    expect([noWallet.status, noWallet.body.code]).toEqual([400, 'NO_LINKED_WALLET']);
    // Payouts go to the linked wallet (linking itself: api/test/siwe.test.ts).
    await t.app.services.db.update(users).set({ walletAddress: '0x00000000000000000000000000000000000000b1' }).where(eq(users.id, userId));
    const ok = await call(t.app, 'POST', '/api/v1/dashboard/withdraw', { token, body });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ message: M.withdrawalSent, status: 'requested' });
    const tooMuch = await call(t.app, 'POST', '/api/v1/dashboard/withdraw', { token, body: { ...body, amount: '4000001' } });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.fields).toEqual({ amount: M.amountTooLarge });
    const pool = await call(t.app, 'GET', '/api/v1/dashboard/pools/stable?currency=USDT', { token });
    expect(pool.body).toMatchObject({ pool: 'stable', deposited: { USDT: '4000000' }, earned: { USDT: '0' }, estimate: { USDT: '1.00000000' } });
    expect(Object.keys(pool.body.addresses as object)).toEqual(['USDT']);
    const balance = await call(t.app, 'GET', '/api/v1/balance?pool=stable', { token });
    expect(balance.body.items).toEqual([expect.objectContaining({ pool: 'stable', currency: 'USDT', amount: '5000000' })]);
    expect((await call(t.app, 'GET', '/api/v1/balance?from=2001-13-01', { token })).status).toBe(400);
  });

  it('GET /dashboard/pools/{pool} without currency lists every currency the pool takes, with its receiving address', async () => {
    const r = await call(t.app, 'POST', '/api/v1/dashboard/refresh-pools/coin', { token });
    expect(r.status).toBe(200);
    // The operator's receiving addresses (api/test/deposits.test.ts checks them in detail).
    expect(Object.keys(r.body.addresses as object)).toEqual(['ETH', 'BNB', 'SOL', 'WAVES']);
    const y = await call(t.app, 'GET', '/api/v1/dashboard/yield', { token });
    expect((y.body.items as unknown[]).length).toBe(9);
  });
});

describe('referrals', () => {
  it('overview, rewards, progress and nothing to claim for a new account (api/test/referral.test.ts has the programme)', async () => {
    const me = await register(t.app);
    const myToken = me.token;
    const overview = await call(t.app, 'GET', '/api/v1/referrals', { token: myToken });
    expect(overview.body).toMatchObject({ members: 0, capitalAttractedUsd: '0.00', bonusesUsd: '0.00', rank: 1, currency: 'USDT', maxTotalBps: 1800 });
    expect(overview.body.referralLink).toContain(`invite=${overview.body.referralId as string}`);
    expect((await call(t.app, 'GET', '/api/v1/referrals/progress', { token: myToken })).body).toMatchObject({ rank: 1, nextRank: 2, progressBps: 0 });
    const nothing = await call(t.app, 'POST', '/api/v1/referrals/withdraw', { token: myToken });
    expect([nothing.status, nothing.body.message]).toEqual([400, M.nothingToClaim]);
    const harvest = await call(t.app, 'GET', '/api/v1/referrals/harvest', { token: myToken });
    expect(harvest.body).toEqual({ currency: 'USDT', decimals: 6, allTime: '0', earned: '0', availableToClaim: '0', inPayment: '0', alreadyPaid: '0', vesting: '0', vestingDays: 30, others: [], claimInProgress: false, claim: null });
    expect((await call(t.app, 'GET', '/api/v1/referrals/affiliates', { token: myToken })).body).toMatchObject({ level: 1, page: 1, size: 20, total: 0, items: [] });
  });
});

describe('operations', () => {
  it('GET /api/health reports the database', async () => {
    const r = await call(t.app, 'GET', '/api/health');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ok', database: 'up' });
  });

  it('serves no dev outbox: codes are read from the mail catcher', async () => {
    expect((await call(t.app, 'GET', '/api/dev/outbox')).status).toBe(404);
  });

  it('answers unknown paths with a JSON 404, sets security headers and a request id, keeps CORS closed', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/v1/nope', headers: { origin: 'https://evil.example' } });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ message: M.notFound, code: 'NOT_FOUND' });
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['x-request-id']).toEqual(expect.any(String));
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses an over-large body with 413', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/v1/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ login: 'a'.repeat(2 * 1024 * 1024) }) });
    expect(r.statusCode).toBe(413);
    expect(r.json().message).toBe(M.payloadTooLarge);
  });

  it('answers an unexpected failure with a generic message and no details', async () => {
    const spy = jest.spyOn(t.app.services.db, 'select').mockImplementationOnce(() => {
      throw new Error('boom: secret detail');
    });
    const r = await call(t.app, 'GET', '/api/v1/currencies');
    spy.mockRestore();
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ message: M.internalError, code: 'INTERNAL' });
    await t.app.services.db.execute(sql`select 1`);
  });
});
