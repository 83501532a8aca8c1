// The cold address's proof of control (issues 24 and 26): the signer does not hold the cold key, so
// a snapshot declares the cold address awaiting its proof, with the exact message to sign, and
// counts none of its balance. An operator submits the message signed offline by the cold key; the
// API checks it recovers exactly that address over exactly that snapshot's message, and from then
// the snapshot's reserves hold the cold address's balances read from the chain at its block.
import { sql } from 'drizzle-orm';
import { Contract, HDNodeWallet, Mnemonic, Wallet } from 'ethers';
import { LOCAL_COLD, mine } from '@app/chain';
import { apiMessages as M, apiMessagesRu as R, type SolvencySnapshot } from '@app/contracts';
import { ERC20_ABI, TOKENS } from '@app/web3';
import { LOCAL_POOL_ADDRESSES } from '../src/db/seed';
import { rows } from '../src/db/rows';
import { call } from './helpers';
import { providerFor, sendEth, sendToken, userWithWallet } from './deposit-helpers';
import { ETH, USDT, moneyStack, operator, operatorHeaders, testOperator } from './money-helpers';

jest.setTimeout(180_000);
const stack = moneyStack();
const app = () => stack.t.app;

// The local stack's cold key: m/44'/60'/0'/0/106 of the public test mnemonic, which the signer does not hold.
const cold = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase('test test test test test test test test test test test junk'), "m/44'/60'/0'/0/106");
const COLD_ETH = 5n * ETH;
const COLD_USDT = 7000n * USDT;

const provider = () => providerFor(stack.chain.rpcUrl);
/** What the chain itself reports at a block. */
async function onChain(address: string, currency: string, block: number): Promise<bigint> {
  if (currency === 'ETH') return provider().getBalance(address, block);
  return (await new Contract(TOKENS[1][currency as 'USDT']!.address, ERC20_ABI, provider()).getFunction('balanceOf')(address, { blockTag: block })) as bigint;
}

const publicSnapshot = async (id: number) => (await call(app(), 'GET', `/api/v1/solvency/${id}`)).body as unknown as SolvencySnapshot;
const stored = async (id: number) => (await rows<{ addresses: unknown; reserves: unknown }>(app().services.db, sql`select addresses, reserves from solvency_snapshots where id = ${id}`))[0];
const reservesOf = (s: SolvencySnapshot, currency: string) => s.reserves.filter((r) => r.currency === currency).reduce((sum, r) => sum + BigInt(r.balance), 0n);
/** Reserves over liabilities in basis points, rounded down: bigint only. */
const bps = (reserves: bigint, liabilities: bigint) => (reserves * 10_000n) / liabilities;

const attest = (id: number, body: unknown, lang?: string) =>
  testOperator(app()).then(async (op) => call(app(), 'POST', `/api/v1/operator/solvency/${id}/attest`, { headers: { ...operatorHeaders(op), ...(lang ? { 'accept-language': lang } : {}) }, body }));

async function snapshot(): Promise<number> {
  const taken = await operator(app(), 'solvency', 'snapshot');
  if (taken.code !== 0) throw new Error(`solvency snapshot failed: ${taken.out}`);
  return Number(/snapshot #(\d+)/.exec(taken.out)![1]);
}

let first: number;
let second: number;
let coldBefore: { ETH: bigint; USDT: bigint };

beforeAll(async () => {
  expect(cold.address.toLowerCase()).toBe(LOCAL_COLD);
  // Liabilities in both currencies: a USDT deposit in the stable pool and an ETH one in the coin pool.
  const wallet = new Wallet(Wallet.createRandom().privateKey, provider());
  await stack.chain.fund(wallet.address, { eth: '3', tokens: { USDT: '1000' } });
  const u = await userWithWallet(app(), wallet);
  for (const [pool, currency, amount] of [['stable', 'USDT', 1000n * USDT], ['coin', 'ETH', 2n * ETH]] as const) {
    const tx = currency === 'ETH' ? await sendEth(u.wallet, LOCAL_POOL_ADDRESSES[pool], amount) : await sendToken(u.wallet, 'USDT', LOCAL_POOL_ADDRESSES[pool], amount);
    expect((await call(app(), 'POST', '/api/v1/dashboard/deposit', { token: u.token, body: { pool, currency, amount: String(amount), transaction: tx } })).status).toBe(200);
    await app().services.depositJob.tick();
  }
  // A known amount added to cold before the snapshots' blocks.
  const head = await provider().getBlockNumber();
  coldBefore = { ETH: await onChain(LOCAL_COLD, 'ETH', head), USDT: await onChain(LOCAL_COLD, 'USDT', head) };
  await stack.chain.fund(LOCAL_COLD, { eth: '5', tokens: { USDT: '7000' } });
  await mine(stack.chain.rpcUrl, 3);
  first = await snapshot();
  await mine(stack.chain.rpcUrl, 2);
  second = await snapshot();
  // More reaches cold after both blocks: never counted in either.
  await stack.chain.fund(LOCAL_COLD, { eth: '11', tokens: { USDT: '13' } });
});

describe('the cold address\'s proof of control', () => {
  it('a snapshot declares cold awaiting its proof, with the exact message to sign, and counts none of its balance', async () => {
    const s = await publicSnapshot(second);
    const title = app().services.config.brands.defaultBrand.title;
    const c = s.addresses.find((a) => a.role === 'cold')!;
    expect(c).toEqual({ address: cold.address, role: 'cold', pool: null, message: `${title} solvency: ${cold.address} belongs to the operator at snapshot ${second}`, signature: null });
    expect(s.reserves.some((r) => r.address === cold.address)).toBe(false);
    // Each reserve names its address's role: deposit addresses per pool, the float, the treasury.
    const roles = new Map(s.addresses.map((a) => [a.address, a.role]));
    for (const r of s.reserves) expect(r.role).toBe(roles.get(r.address));
    expect(new Set(s.reserves.map((r) => r.role))).toEqual(new Set(['pool', 'float', 'treasury']));
    for (const [pool, address] of Object.entries(LOCAL_POOL_ADDRESSES)) {
      expect(s.addresses.find((a) => a.address.toLowerCase() === address)).toMatchObject({ role: 'pool', pool });
    }
    const shown = await operator(app(), 'solvency', 'show', String(second));
    expect(shown.out).toContain(`${cold.address} (cold) awaits its proof of control`);
    expect(shown.out).toContain(c.message);
  });

  it('refuses a wrong signer, another snapshot\'s message, an address not declared and garbage, each with a clear error in English and Russian, changing nothing', async () => {
    const s = await publicSnapshot(second);
    const message = s.addresses.find((a) => a.role === 'cold')!.message;
    const before = await stored(second);
    const stranger = Wallet.createRandom();
    const firstMessage = (await publicSnapshot(first)).addresses.find((a) => a.role === 'cold')!.message;
    const title = app().services.config.brands.defaultBrand.title;
    const cases: [string, unknown, number, string][] = [
      ['another key over the right message', { address: cold.address, signature: await stranger.signMessage(message) }, 400, 'solvencyAttestWrongSigner'],
      ['the cold key over another snapshot\'s message', { address: cold.address, signature: await cold.signMessage(firstMessage) }, 400, 'solvencyAttestWrongSigner'],
      ['a signature of 65 zero bytes', { address: cold.address, signature: `0x${'00'.repeat(65)}` }, 400, 'solvencyAttestWrongSigner'],
      [
        'an address not declared, signing its own message',
        { address: stranger.address, signature: await stranger.signMessage(`${title} solvency: ${stranger.address} belongs to the operator at snapshot ${second}`) },
        400,
        'solvencyAttestNotDeclared',
      ],
    ];
    for (const [what, body, status, key] of cases) {
      const en = await attest(second, body);
      expect([what, en.status, en.body.message]).toEqual([what, status, M[key as keyof typeof M]]);
      expect((await attest(second, body, 'ru')).body.message).toBe(R[key as keyof typeof R]);
    }
    // Malformed input is refused by the contract's schema, field by field, in both languages.
    const garbage = await attest(second, { address: 'cold', signature: 'garbage' });
    expect(garbage.status).toBe(400);
    expect(garbage.body.fields).toEqual({ address: M.solvencyAttestAddress, signature: M.solvencyAttestSignatureFormat });
    expect((await attest(second, { address: 'cold', signature: 'garbage' }, 'ru')).body.fields).toEqual({ address: R.solvencyAttestAddress, signature: R.solvencyAttestSignatureFormat });
    expect((await attest(999, { address: cold.address, signature: await cold.signMessage(message) })).body.message).toBe(M.solvencyUnknownSnapshot);
    // The command line checks with the same contract before it sends anything.
    expect(await operator(app(), 'solvency', 'attest', String(second), cold.address, '0x12')).toMatchObject({ code: 2, out: expect.stringContaining(M.solvencyAttestSignatureFormat) });
    expect(await stored(second)).toEqual(before);
    const refusals = await rows<{ n: number }>(app().services.db, sql`select count(*)::int as n from operator_audit where action = 'solvency.attest-refused' and target = ${String(second)} and actor = 'operator:tess'`);
    expect(refusals[0]!.n).toBe(cases.length * 2);
  });

  it('accepted through the command line, it adds exactly the cold address\'s balances at the snapshot block, and the ratio is recomputed', async () => {
    const before = await publicSnapshot(second);
    const block = before.header.blockNumber;
    const message = before.addresses.find((a) => a.role === 'cold')!.message;
    // The balance at the snapshot's block: what the chain says there, and what this test put there.
    const held = { ETH: await onChain(LOCAL_COLD, 'ETH', block), USDT: await onChain(LOCAL_COLD, 'USDT', block) };
    expect(held).toEqual({ ETH: coldBefore.ETH + COLD_ETH, USDT: coldBefore.USDT + COLD_USDT });
    // And not what reached cold after it.
    expect(await provider().getBalance(LOCAL_COLD)).toBe(held.ETH + 11n * ETH);

    const done = await operator(app(), 'solvency', 'attest', String(second), cold.address, await cold.signMessage(message));
    expect(done.code).toBe(0);
    expect(done.out).toContain(`has proven control in snapshot #${second}`);

    const after = await publicSnapshot(second);
    expect(after.header).toEqual(before.header);
    expect(after.signature).toBe(before.signature);
    expect(after.addresses.find((a) => a.role === 'cold')).toMatchObject({ address: cold.address, message, signature: expect.stringMatching(/^0x[0-9a-f]{130}$/) });
    expect(after.reserves.filter((r) => r.role === 'cold')).toEqual(
      before.header.currencies.map((currency) => ({ address: cold.address, role: 'cold', pool: null, currency, balance: String(held[currency as 'ETH' | 'USDT']) })),
    );
    for (const [i, currency] of before.header.currencies.entries()) {
      const liabilities = BigInt(before.header.sums[i]!);
      const was = reservesOf(before, currency);
      expect(reservesOf(after, currency)).toBe(was + held[currency as 'ETH' | 'USDT']);
      // The ratio from the chain's own figures: every proven address at the block, cold included.
      let chain = 0n;
      for (const a of after.addresses.filter((x) => x.signature !== null)) chain += await onChain(a.address, currency, block);
      expect(bps(reservesOf(after, currency), liabilities)).toBe(bps(chain, liabilities));
      expect(bps(reservesOf(after, currency), liabilities)).toBeGreaterThan(bps(was, liabilities));
    }
    const [audited] = await rows<{ actor: string; after: { address: string; balances: { currency: string; balance: string }[] } }>(
      app().services.db,
      sql`select actor, after from operator_audit where action = 'solvency.attested' and target = ${String(second)}`,
    );
    expect(audited).toMatchObject({ actor: 'operator:tess', after: { address: cold.address } });
    expect(audited!.after.balances).toEqual(before.header.currencies.map((currency) => ({ currency, balance: String(held[currency as 'ETH' | 'USDT']) })));

    // Once proven, a second submission is refused and changes nothing; the other snapshot still awaits its own proof.
    const proven = await stored(second);
    expect(await attest(second, { address: cold.address, signature: await cold.signMessage(message) })).toMatchObject({ status: 409, body: { message: M.solvencyAttestProven } });
    expect(await stored(second)).toEqual(proven);
    const other = await publicSnapshot(first);
    expect(other.addresses.find((a) => a.role === 'cold')!.signature).toBeNull();
    expect(other.reserves.some((r) => r.role === 'cold')).toBe(false);
  });
});
