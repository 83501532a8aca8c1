// The signer against the ledger's real tables (the API's schema, in an in-memory database): what it
// signs and what it refuses, and its own audit log.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Interface, Transaction, Wallet, verifyMessage } from 'ethers';
import { canonicalHeader, type Header } from '@app/solvency';
import { ERC20_ABI, TOKENS } from '@app/web3';
import { createTestDatabase, type TestDatabase } from '../../api/test/helpers';
import { users, withdrawals } from '../../api/src/db/schema';
import { seed } from '../../api/src/db/seed';
import { verifyLog } from '../src/audit-log';
import { createSigner, databaseRecords, Refused } from '../src/signer';
import { serveSigner } from '../src/server';
import type { Limits, UnsignedTx } from '../src/policy';

const ETH = 10n ** 18n;
const USDT = 10n ** 6n;
const float = Wallet.createRandom();
const depositAddress = Wallet.createRandom();
const treasury = Wallet.createRandom();
const solvencyKey = Wallet.createRandom();
const cold = Wallet.createRandom().address;
const erc20 = new Interface(ERC20_ABI as unknown as string[]);
const limits = (): Limits => ({
  caps: { ETH: { perTransaction: 2n * ETH, perDay: 3n * ETH }, USDT: { perTransaction: 1000n * USDT, perDay: 5000n * USDT } },
  perMinute: 100,
  cold,
  float: float.address,
  treasuryCaps: { ETH: { perTransaction: ETH, perDay: 2n * ETH }, USDT: { perTransaction: 100n * USDT, perDay: 150n * USDT } },
});

let t: TestDatabase;
let dir: string;
beforeAll(async () => {
  t = await createTestDatabase();
  await seed(t.database.db);
  dir = mkdtempSync(join(tmpdir(), 'signer-'));
});
afterAll(async () => t?.drop());

const db = () => t.database.db;
const query = (text: string, params: unknown[]) => (db() as unknown as { $client: { query: (t: string, p: unknown[]) => Promise<{ rows: unknown[] }> } }).$client.query(text, params);

/** An account with a linked wallet and a payout recorded for it (amount, fee, destination). */
async function recorded(p: { currency?: string; amount: bigint; fee?: bigint; to?: string; status?: string }) {
  const wallet = Wallet.createRandom().address.toLowerCase();
  const id = randomUUID();
  await db().insert(users).values({ id, walletAddress: wallet, role: 'user', referralCode: randomUUID().slice(0, 8) });
  const [w] = await db()
    .insert(withdrawals)
    .values({ userId: id, pool: 'coin', currency: p.currency ?? 'ETH', amount: String(p.amount), fee: String(p.fee ?? 0n), toAddress: p.to ?? wallet, status: p.status ?? 'requested' })
    .returning({ id: withdrawals.id });
  return { id: w!.id, wallet };
}

let nonce = 0;
const ethTx = (to: string, value: bigint, from = float.address): UnsignedTx => ({
  chainId: 1, from, to, value: String(value), data: '0x', nonce: nonce++, gasLimit: '21000', maxFeePerGas: '2000000000', maxPriorityFeePerGas: '1000000',
});
const usdtTx = (to: string, amount: bigint): UnsignedTx => ({
  ...ethTx(TOKENS[1].USDT!.address, 0n), data: erc20.encodeFunctionData('transfer', [to, amount]), gasLimit: '80000',
});

function signer(logName: string, alerts: string[] = [], over: Partial<Limits> = {}) {
  return createSigner({
    keys: [float.privateKey, depositAddress.privateKey],
    treasuryKey: treasury.privateKey,
    solvencyKey: solvencyKey.privateKey,
    limits: { ...limits(), ...over },
    records: databaseRecords(query),
    logFile: join(dir, logName),
    alert: (r) => alerts.push(r),
  });
}

describe('the signer signs only what the ledger recorded, within policy', () => {
  it('signs a payout that matches its record, from the float, to the linked wallet', async () => {
    const s = signer('ok.log');
    const w = await recorded({ amount: ETH, fee: ETH / 100n });
    const { signedTx, hash } = await s.sign({ kind: 'payout', withdrawalId: w.id, tx: ethTx(w.wallet, ETH - ETH / 100n) });
    const tx = Transaction.from(signedTx);
    expect([tx.from, tx.to?.toLowerCase(), tx.value, tx.hash]).toEqual([float.address, w.wallet, ETH - ETH / 100n, hash]);
    const u = await recorded({ currency: 'USDT', amount: 250n * USDT });
    await expect(s.sign({ kind: 'payout', withdrawalId: u.id, tx: usdtTx(u.wallet, 250n * USDT) })).resolves.toMatchObject({ hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
  });

  it('refuses a destination that is not the account\'s linked wallet, audits and alerts it', async () => {
    const alerts: string[] = [];
    const s = signer('destination.log', alerts);
    const attacker = Wallet.createRandom().address.toLowerCase();
    // The API, compromised, recorded the payout to its own address: the linked wallet is another.
    const w = await recorded({ amount: ETH / 2n, to: attacker });
    await expect(s.sign({ kind: 'payout', withdrawalId: w.id, tx: ethTx(attacker, ETH / 2n) })).rejects.toEqual(new Refused(`${attacker} is not the account's linked wallet nor a declared address`));
    // Or asked for a transfer elsewhere than its record says.
    const v = await recorded({ amount: ETH / 2n });
    await expect(s.sign({ kind: 'payout', withdrawalId: v.id, tx: ethTx(attacker, ETH / 2n) })).rejects.toBeInstanceOf(Refused);
    expect(alerts).toHaveLength(2);
    const log = readFileSync(join(dir, 'destination.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event: string; detail: { withdrawalId: number } });
    expect(log.map((e) => [e.event, e.detail.withdrawalId])).toEqual([['refused', w.id], ['refused', v.id]]);
  });

  it('refuses an amount over the per-transaction cap, and payouts that would pass the daily cap', async () => {
    const s = signer('caps.log');
    const big = await recorded({ amount: 2n * ETH + 1n });
    await expect(s.sign({ kind: 'payout', withdrawalId: big.id, tx: ethTx(big.wallet, 2n * ETH + 1n) })).rejects.toEqual(new Refused(`${2n * ETH + 1n} ETH is over the per-transaction cap of ${2n * ETH}`));
    // 2 + 1 = 3 ETH today is the cap; one wei more is refused.
    const a = await recorded({ amount: 2n * ETH });
    const b = await recorded({ amount: ETH });
    const c = await recorded({ amount: 1n });
    await s.sign({ kind: 'payout', withdrawalId: a.id, tx: ethTx(a.wallet, 2n * ETH) });
    await s.sign({ kind: 'payout', withdrawalId: b.id, tx: ethTx(b.wallet, ETH) });
    await expect(s.sign({ kind: 'payout', withdrawalId: c.id, tx: ethTx(c.wallet, 1n) })).rejects.toEqual(new Refused(`ETH paid today would pass the daily cap of ${3n * ETH}`));
    // A restart reads the day's totals back from its log: still refused.
    await expect(signer('caps.log').sign({ kind: 'payout', withdrawalId: c.id, tx: ethTx(c.wallet, 1n) })).rejects.toBeInstanceOf(Refused);
  });

  it('refuses a request whose ledger record does not match: amount, currency, a missing or a finished payout', async () => {
    const s = signer('mismatch.log');
    const w = await recorded({ amount: ETH, fee: 10n });
    await expect(s.sign({ kind: 'payout', withdrawalId: w.id, tx: ethTx(w.wallet, ETH) })).rejects.toEqual(new Refused(`payout ${w.id} pays ${ETH - 10n}, not ${ETH}`));
    await expect(s.sign({ kind: 'payout', withdrawalId: w.id, tx: usdtTx(w.wallet, ETH - 10n) })).rejects.toEqual(new Refused(`payout ${w.id} is in ETH, not USDT`));
    await expect(s.sign({ kind: 'payout', withdrawalId: 987654321, tx: ethTx(w.wallet, ETH - 10n) })).rejects.toEqual(new Refused('the ledger has no payout 987654321'));
    const paid = await recorded({ amount: ETH, status: 'paid' });
    await expect(s.sign({ kind: 'payout', withdrawalId: paid.id, tx: ethTx(paid.wallet, ETH) })).rejects.toEqual(new Refused(`payout ${paid.id} is paid`));
    // A payout is never paid from a deposit address's key.
    await expect(s.sign({ kind: 'payout', withdrawalId: w.id, tx: ethTx(w.wallet, ETH - 10n, depositAddress.address) })).rejects.toEqual(new Refused('payouts are paid from the float only'));
  });

  it('refuses requests over the rate', async () => {
    const s = signer('rate.log', [], { perMinute: 2 });
    const ws = await Promise.all([1n, 2n, 3n].map((n) => recorded({ amount: n })));
    await s.sign({ kind: 'payout', withdrawalId: ws[0]!.id, tx: ethTx(ws[0]!.wallet, 1n) });
    await s.sign({ kind: 'payout', withdrawalId: ws[1]!.id, tx: ethTx(ws[1]!.wallet, 2n) });
    await expect(s.sign({ kind: 'payout', withdrawalId: ws[2]!.id, tx: ethTx(ws[2]!.wallet, 3n) })).rejects.toEqual(new Refused('more than 2 signatures a minute'));
  });

  it('signs a sweep from a deposit address to cold only; its log is a hash chain that shows an edited line', async () => {
    const s = signer('sweep.log');
    const swept = await s.sign({ kind: 'sweep', tx: ethTx(cold, ETH, depositAddress.address) });
    expect(Transaction.from(swept.signedTx).from).toBe(depositAddress.address);
    await expect(s.sign({ kind: 'sweep', tx: ethTx(Wallet.createRandom().address, ETH, depositAddress.address) })).rejects.toBeInstanceOf(Refused);
    await expect(s.sign({ kind: 'sweep', tx: ethTx(cold, ETH) })).rejects.toEqual(new Refused('the float is not swept'));
    const file = join(dir, 'sweep.log');
    expect(verifyLog(file)).toEqual({ ok: true, entries: 3, brokenAt: null });
    writeFileSync(file, readFileSync(file, 'utf8').replace('"event":"refused"', '"event":"signed"'));
    expect(verifyLog(file)).toMatchObject({ ok: false, brokenAt: 2 });
  });

  it('answers over its loopback port: 403 with the reason of a refusal', async () => {
    const s = signer('http.log');
    const server = await serveSigner(s, 0);
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/sign`;
      const w = await recorded({ amount: ETH });
      const post = (body: unknown) => fetch(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      const refused = await post({ kind: 'payout', withdrawalId: w.id, tx: ethTx(w.wallet, ETH + 1n) });
      expect([refused.status, await refused.json()]).toEqual([403, { refused: `payout ${w.id} pays ${ETH}, not ${ETH + 1n}` }]);
      const ok = await post({ kind: 'payout', withdrawalId: w.id, tx: ethTx(w.wallet, ETH) });
      expect(ok.status).toBe(200);
      expect((await post({ nonsense: true })).status).toBe(400);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

/** The log's decisions: event, kind and, for a refusal, its reason. */
const decisions = (logName: string) =>
  readFileSync(join(dir, logName), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { event: string; detail: { kind: string; reason?: string } })
    .map((e) => [e.event, e.detail.kind, e.detail.reason ?? null]);

describe('the treasury funds the house\'s own addresses only, within its caps', () => {
  const fromTreasury = (tx: UnsignedTx): UnsignedTx => ({ ...tx, from: treasury.address });

  it('signs a transfer from the treasury to a deposit address, the float or cold', async () => {
    const s = signer('treasury-ok.log');
    for (const to of [depositAddress.address, float.address, cold]) {
      const signed = await s.sign({ kind: 'treasury', tx: fromTreasury(ethTx(to, ETH / 4n)) });
      const tx = Transaction.from(signed.signedTx);
      expect([tx.from, tx.to, tx.value]).toEqual([treasury.address, to, ETH / 4n]);
    }
    expect(s.declared.treasury).toBe(treasury.address.toLowerCase());
  });

  it('refuses a destination that is not a declared house address, audits and alerts it', async () => {
    const alerts: string[] = [];
    const s = signer('treasury-destination.log', alerts);
    const attacker = Wallet.createRandom().address.toLowerCase();
    await expect(s.sign({ kind: 'treasury', tx: fromTreasury(ethTx(attacker, 1n)) })).rejects.toEqual(new Refused(`the treasury pays declared house addresses only, not ${attacker}`));
    // A token transfer is read out of its call data: the same.
    await expect(s.sign({ kind: 'treasury', tx: fromTreasury(usdtTx(attacker, USDT)) })).rejects.toEqual(new Refused(`the treasury pays declared house addresses only, not ${attacker}`));
    expect(alerts).toHaveLength(2);
    expect(decisions('treasury-destination.log')).toEqual([
      ['refused', 'treasury', `the treasury pays declared house addresses only, not ${attacker}`],
      ['refused', 'treasury', `the treasury pays declared house addresses only, not ${attacker}`],
    ]);
  });

  it('refuses a transfer over its per-transaction cap, and transfers that would pass its daily cap, even after a restart', async () => {
    const alerts: string[] = [];
    const s = signer('treasury-caps.log', alerts);
    await expect(s.sign({ kind: 'treasury', tx: fromTreasury(usdtTx(depositAddress.address, 100n * USDT + 1n)) })).rejects.toEqual(
      new Refused(`${100n * USDT + 1n} USDT is over the treasury's per-transaction cap of ${100n * USDT}`),
    );
    // 100 + 50 = 150 USDT today is the cap; one base unit more is refused, and says when to ask again.
    await s.sign({ kind: 'treasury', tx: fromTreasury(usdtTx(depositAddress.address, 100n * USDT)) });
    await s.sign({ kind: 'treasury', tx: fromTreasury(usdtTx(float.address, 50n * USDT)) });
    const over = s.sign({ kind: 'treasury', tx: fromTreasury(usdtTx(depositAddress.address, 1n)) });
    await expect(over).rejects.toEqual(new Refused(`USDT funded by the treasury today would pass its daily cap of ${150n * USDT}`));
    await expect(over).rejects.toMatchObject({ retry: 'day' });
    await expect(signer('treasury-caps.log', alerts).sign({ kind: 'treasury', tx: fromTreasury(usdtTx(depositAddress.address, 1n)) })).rejects.toBeInstanceOf(Refused);
    // Its caps are its own: the payouts' (1000 USDT a transaction) do not let it pass, nor does it spend theirs.
    const w = await recorded({ currency: 'USDT', amount: 500n * USDT });
    await expect(s.sign({ kind: 'payout', withdrawalId: w.id, tx: usdtTx(w.wallet, 500n * USDT) })).resolves.toMatchObject({ hash: expect.any(String) });
    expect(alerts).toHaveLength(3);
  });

  it('signs treasury transfers with the treasury\'s key only, and never lends it to a payout or a sweep', async () => {
    const s = signer('treasury-keys.log');
    // The float's key does not fund; the treasury's key does not sweep, nor pay a payout.
    await expect(s.sign({ kind: 'treasury', tx: ethTx(depositAddress.address, 1n) })).rejects.toEqual(new Refused(`a treasury transfer leaves from the treasury only, not ${float.address}`));
    await expect(s.sign({ kind: 'sweep', tx: fromTreasury(ethTx(cold, 1n)) })).rejects.toEqual(new Refused(`no key for ${treasury.address}`));
    const w = await recorded({ amount: 1n });
    await expect(s.sign({ kind: 'payout', withdrawalId: w.id, tx: fromTreasury(ethTx(w.wallet, 1n)) })).rejects.toEqual(new Refused(`no key for ${treasury.address}`));
    // A signer without a treasury key funds nothing.
    const none = createSigner({ keys: [float.privateKey], limits: limits(), records: databaseRecords(query), logFile: join(dir, 'no-treasury.log') });
    await expect(none.sign({ kind: 'treasury', tx: fromTreasury(ethTx(depositAddress.address, 1n)) })).rejects.toBeInstanceOf(Refused);
    expect(none.declared.treasury).toBeNull();
  });
});

describe('the solvency key signs a well-formed pol-v1 header and nothing else', () => {
  const header = (over: Partial<Header> = {}): Header => ({
    version: 'pol-v1',
    snapshotId: 7,
    takenAt: '2026-11-28T10:00:00.123Z',
    chainId: 1,
    blockNumber: 1234,
    blockHash: `0x${'ab'.repeat(32)}`,
    currencies: ['ETH', 'USDT'],
    decimals: [18, 6],
    root: `0x${'cd'.repeat(32)}`,
    sums: ['1000000000000000000', '2500000'],
    leafCount: 16,
    ...over,
  });

  it('signs the canonical header: the signature recovers the solvency key\'s address, and the log names the snapshot', async () => {
    const s = signer('solvency-ok.log');
    const text = canonicalHeader(header());
    const { signature, address } = await s.signHeader(text);
    expect(address).toBe(solvencyKey.address);
    expect(verifyMessage(text, signature)).toBe(solvencyKey.address);
    expect(s.declared.solvency).toBe(solvencyKey.address.toLowerCase());
    expect(readFileSync(join(dir, 'solvency-ok.log'), 'utf8')).toContain('"snapshotId":7');
  });

  it('signs the header of a book that owes nothing yet (no currency, one padding leaf): the stack\'s first snapshot', async () => {
    const s = signer('solvency-empty.log');
    const text = canonicalHeader(header({ currencies: [], decimals: [], sums: [], leafCount: 1 }));
    const { signature } = await s.signHeader(text);
    expect(verifyMessage(text, signature)).toBe(solvencyKey.address);
  });

  it('refuses any other message: free text, a transfer\'s words, another key, the keys reordered or spaced, sums that do not fit', async () => {
    const alerts: string[] = [];
    const s = signer('solvency-refused.log', alerts);
    const h = header();
    const { snapshotId: _id, version: _version, ...rest } = h;
    const refused = [
      'I authorise the transfer of 100 ETH to 0x0000000000000000000000000000000000000001',
      `Test solvency: ${solvencyKey.address} belongs to the operator at snapshot 7`,
      JSON.stringify({ ...h, note: 'anything' }),
      JSON.stringify({ snapshotId: h.snapshotId, version: h.version, ...rest }),
      JSON.stringify(h, null, 1),
      JSON.stringify({ ...h, leafCount: undefined }),
      canonicalHeader(header({ version: 'pol-v2' })),
      canonicalHeader(header({ sums: ['1'] })),
      canonicalHeader(header({ sums: ['1', `1${'0'.repeat(78)}`] })),
      canonicalHeader(header({ blockHash: '0x1234' })),
      '',
    ];
    for (const message of refused) await expect(s.signHeader(message)).rejects.toBeInstanceOf(Refused);
    expect(alerts).toHaveLength(refused.length);
    expect(decisions('solvency-refused.log').map(([event, kind]) => [event, kind])).toEqual(refused.map(() => ['refused', 'solvency']));
    // The solvency key signs no control message and no transaction either.
    await expect(s.signMessage(solvencyKey.address, `Test solvency: ${solvencyKey.address} belongs to the operator at snapshot 7`)).rejects.toBeInstanceOf(Refused);
    await expect(s.sign({ kind: 'sweep', tx: { ...ethTx(cold, 1n), from: solvencyKey.address } })).rejects.toBeInstanceOf(Refused);
  });

  it('will not start with a solvency key that also moves money', () => {
    for (const key of [treasury.privateKey, float.privateKey, depositAddress.privateKey])
      expect(() => createSigner({ keys: [float.privateKey, depositAddress.privateKey], treasuryKey: treasury.privateKey, solvencyKey: key, limits: limits(), records: databaseRecords(query), logFile: join(dir, 'same-key.log') })).toThrow(
        'the solvency key must be no key that moves money',
      );
  });

  it('answers over its loopback port: a header under kind solvency, 403 for anything else', async () => {
    const s = signer('solvency-http.log');
    const server = await serveSigner(s, 0);
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/sign-message`;
      const post = (body: unknown) => fetch(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      const text = canonicalHeader(header());
      const ok = await post({ kind: 'solvency', message: text });
      expect(ok.status).toBe(200);
      expect(verifyMessage(text, ((await ok.json()) as { signature: string }).signature)).toBe(solvencyKey.address);
      const refused = await post({ kind: 'solvency', message: 'hello' });
      expect([refused.status, await refused.json()]).toEqual([403, { refused: 'not a solvency header: not JSON' }]);
      const addresses = (await (await fetch(url.replace('sign-message', 'addresses'))).json()) as { treasury: string; solvency: string };
      expect(addresses).toMatchObject({ treasury: treasury.address.toLowerCase(), solvency: solvencyKey.address.toLowerCase() });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
