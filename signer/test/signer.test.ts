// The signer against the ledger's real tables (the API's schema, in an in-memory database): what it
// signs and what it refuses, and its own audit log.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Interface, Transaction, Wallet } from 'ethers';
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
const cold = Wallet.createRandom().address;
const erc20 = new Interface(ERC20_ABI as unknown as string[]);
const limits = (): Limits => ({
  caps: { ETH: { perTransaction: 2n * ETH, perDay: 3n * ETH }, USDT: { perTransaction: 1000n * USDT, perDay: 5000n * USDT } },
  perMinute: 100,
  cold,
  float: float.address,
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
  return createSigner({ keys: [float.privateKey, depositAddress.privateKey], limits: { ...limits(), ...over }, records: databaseRecords(query), logFile: join(dir, logName), alert: (r) => alerts.push(r) });
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
