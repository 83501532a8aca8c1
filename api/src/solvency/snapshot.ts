// Taking a proof-of-solvency snapshot (docs/proof-of-solvency.md): the chain first (the block and
// the reserves at it), then one REPEATABLE READ transaction that reads every user's liabilities,
// splits, shuffles, builds and stores the tree and the signed header. Memory stays flat: users are
// read a page at a time, the parts wait in a table, and the tree folds as they stream back.
import { randomBytes, randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Interface, Wallet, getAddress } from 'ethers';
import { apiMessages as M, type DeclaredAddress } from '@app/contracts';
import { StreamingTree, VERSION, canonicalHeader, leafHash, paddedLeafCount, paddingLeafHash, subKey, toHex, type Header, type TreeNode } from '@app/solvency';
import { ERC20_ABI, TOKENS } from '@app/web3';
import { ChainUnavailable, type ChainReader } from '../chain';
import { audit } from '../db/audit';
import type { Db } from '../db/client';
import { rows } from '../db/rows';
import { ApiError } from '../http/errors';
import type { PayoutSigner } from '../payouts';

export type SnapshotSettings = {
  chainId: number;
  /** The snapshot's block is at least this many blocks behind the head. */
  confirmations: number;
  solvencyKey: string | null;
  /** The brand title the control messages name. */
  brandTitle: string;
  /** The signer, which holds the deposit addresses' and the float's keys and signs their control messages. */
  custody: PayoutSigner | null;
  treasuryKey: string | null;
  /** Users read, and parts and nodes written, per statement. */
  pageSize?: number;
};

export type SnapshotTaken = { id: number; blockNumber: number; root: string; leafCount: number; users: number; currencies: string[]; sums: string[]; seconds: number };

/** Withdrawals whose amount the ledger still owes (reserved, not paid, not returned). */
const UNPAID = sql`('requested', 'awaiting_approval', 'waiting_funds', 'sending', 'cancelling')`;
/** Referral rewards the ledger owes and no claim has taken yet (a claim's are in its withdrawal). */
const REWARDS_OWED = sql`('vesting', 'earned')`;
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

export const controlMessage = (brandTitle: string, address: string, snapshotId: number) =>
  `${brandTitle} solvency: ${address} belongs to the operator at snapshot ${snapshotId}`;

const erc20 = new Interface(ERC20_ABI as unknown as string[]);
const hexBlock = (n: number) => `0x${n.toString(16)}`;

async function balanceAt(chain: ChainReader, address: string, currency: string, block: number): Promise<bigint> {
  if (currency === 'ETH') return BigInt(await chain.call<string>('eth_getBalance', [address, hexBlock(block)]));
  const token = TOKENS[1][currency as keyof (typeof TOKENS)[1]];
  // A currency with no token on chain 1 is held nowhere we can read: no reserve is claimed for it.
  if (!token) return 0n;
  const data = erc20.encodeFunctionData('balanceOf', [address]);
  return BigInt(await chain.call<string>('eth_call', [{ to: token.address, data }, hexBlock(block)]));
}

/** A uniform random integer in [0, bound) from the crypto RNG (64 spare bits make the modulo bias negligible). */
function randomBelow(bound: bigint): bigint {
  if (bound <= 1n) return 0n;
  const bytes = Math.ceil(bound.toString(16).length / 2) + 8;
  return BigInt(`0x${randomBytes(bytes).toString('hex')}`) % bound;
}

/** Splits a vector into k parts of random non-negative amounts per currency that add up to it exactly. */
export function splitVector(vector: readonly bigint[], k: number): bigint[][] {
  const parts = Array.from({ length: k }, () => vector.map(() => 0n));
  vector.forEach((v, c) => {
    const cuts = Array.from({ length: k - 1 }, () => randomBelow(v + 1n)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    let prev = 0n;
    [...cuts, v].forEach((cut, i) => {
      parts[i]![c] = cut - prev;
      prev = cut;
    });
  });
  return parts;
}

type Declared = { address: string; role: DeclaredAddress['role']; pool: string | null; sign: (message: string) => Promise<string> };

/**
 * The operator's addresses whose control can be proven: each pool's deposit address and the float
 * (their keys are the signer's, which signs the control messages) and the treasury.
 */
async function declaredAddresses(db: Db, s: SnapshotSettings): Promise<Declared[]> {
  const custody = s.custody ? await s.custody.addresses() : null;
  const held = new Set(custody?.deposits ?? []);
  const signedBy = (address: string) => (message: string) => s.custody!.signMessage(address, message);
  const pools = await rows<{ address: string; pools: string }>(
    db,
    sql`select lower(address) as address, string_agg(distinct pool, ',' order by pool) as pools from pool_addresses where chain_id = ${s.chainId} group by lower(address) order by 1`,
  );
  const out: Declared[] = [];
  for (const p of pools) {
    // An address whose key the signer does not hold cannot prove control: it is not declared, nor counted.
    if (held.has(p.address)) out.push({ address: getAddress(p.address), role: 'pool', pool: p.pools, sign: signedBy(p.address) });
  }
  if (custody && !out.some((d) => d.address.toLowerCase() === custody.float)) out.push({ address: getAddress(custody.float), role: 'float', pool: null, sign: signedBy(custody.float) });
  if (s.treasuryKey) {
    const wallet = new Wallet(s.treasuryKey);
    if (!out.some((d) => d.address === wallet.address)) out.push({ address: wallet.address, role: 'treasury', pool: null, sign: (m) => wallet.signMessage(m) });
  }
  return out;
}

type ChainState = { blockNumber: number; blockHash: string; declared: Declared[] };

/** Everything read from the chain, before anything is written: an unreachable node stores nothing. */
async function readChain(db: Db, chain: ChainReader, s: SnapshotSettings): Promise<ChainState> {
  const chainId = await chain.chainId();
  if (chainId !== s.chainId) throw new ChainUnavailable(`the node is on chain ${chainId}, not ${s.chainId}`);
  const head = await chain.blockNumber(0);
  const blockNumber = Math.max(0, head - s.confirmations);
  const block = await chain.call<{ hash: string } | null>('eth_getBlockByNumber', [hexBlock(blockNumber), false]);
  if (!block?.hash) throw new ChainUnavailable(`block ${blockNumber} not found`);
  return { blockNumber, blockHash: block.hash.toLowerCase(), declared: await declaredAddresses(db, s) };
}

/** The ledger's liabilities per currency (positions, in flight, referral rewards payable), and each currency's decimals. */
async function ledgerLiabilities(tx: Pick<Db, 'execute'>) {
  return rows<{ currency: string; decimals: number; owed: string }>(
    tx,
    sql`select a.currency, c.decimals, (-sum(a.balance))::text as owed
        from ledger_accounts a join currencies c on c.code = a.currency
        where a.kind in ('position', 'withdrawals_in_flight', 'referral_rewards_payable')
        group by a.currency, c.decimals, c.sort
        having sum(a.balance) <> 0
        order by c.sort, a.currency`,
  );
}

/**
 * Takes a snapshot. `day` marks the daily job's (one per day). The job's lease is long rather than
 * renewed: a renewal is a query on another connection, which the embedded database, one
 * connection, would queue behind this very transaction.
 */
export async function takeSnapshot(db: Db, chain: ChainReader, s: SnapshotSettings, by: { actor: string; day?: string }): Promise<SnapshotTaken> {
  const started = Date.now();
  const refuse = async (reason: string, err: ApiError) => {
    await audit(db, { actor: by.actor, action: 'solvency.refused', ...(by.day ? { target: by.day } : {}), after: { reason } });
    return err;
  };
  if (!s.solvencyKey) throw await refuse('no solvency key', new ApiError(503, M.solvencyNoKey, 'SOLVENCY_NO_KEY'));
  const signer = new Wallet(s.solvencyKey);
  let state: ChainState;
  try {
    state = await readChain(db, chain, s);
  } catch (err) {
    if (err instanceof ChainUnavailable) throw await refuse(`chain unreachable: ${err.message}`, new ApiError(503, M.solvencyChainUnreachable, 'CHAIN_UNREACHABLE'));
    throw err;
  }
  const page = s.pageSize ?? 2000;
  try {
    return await db.transaction(
      async (tx) => {
        const takenAt = new Date().toISOString();
        const [next] = await rows<{ id: number }>(tx, sql`select (coalesce(max(id), 0) + 1)::int as id from solvency_snapshots`);
        const id = next!.id;
        const ledger = await ledgerLiabilities(tx);
        const currencies = ledger.map((l) => l.currency);
        const column = new Map(currencies.map((c, i) => [c, i]));
        const totals = currencies.map(() => 0n);
        let users = 0;
        let partCount = 0;

        // 1. Liabilities per user, a page of users at a time; the parts go to the shuffle table.
        for (let after = NIL_UUID; ; ) {
          const [bound] = await rows<{ upto: string | null }>(tx, sql`select id::text as upto from (select id from users where id > ${after} order by id limit ${page}) p order by id desc limit 1`);
          const upto = bound?.upto;
          if (!upto) break;
          const owed = await rows<{ user_id: string; currency: string; owed: string }>(
            tx,
            sql`select user_id::text, currency, sum(owed)::text as owed from (
                  select user_id, currency, -balance as owed from ledger_accounts where kind = 'position' and user_id > ${after} and user_id <= ${upto}
                  union all
                  select user_id, currency, amount from withdrawals where status in ${UNPAID} and user_id > ${after} and user_id <= ${upto}
                  union all
                  select user_id, currency, amount from referral_rewards where status in ${REWARDS_OWED} and user_id > ${after} and user_id <= ${upto}
                ) x group by user_id, currency`,
          );
          const vectors = new Map<string, bigint[]>();
          for (const o of owed) {
            const v = BigInt(o.owed);
            if (v < 0n) throw new ApiError(409, `a negative liability (${o.currency}) aborts the snapshot: run ledger check`, 'SOLVENCY_NEGATIVE');
            const c = column.get(o.currency);
            if (v === 0n) continue;
            if (c === undefined) throw new ApiError(409, `a user is owed ${o.currency}, which the ledger's totals do not hold`, 'SOLVENCY_UNBALANCED');
            const vector = vectors.get(o.user_id) ?? currencies.map(() => 0n);
            vector[c] = v;
            vectors.set(o.user_id, vector);
          }
          if (vectors.size) {
            const nonces = await noncesOf(tx, [...vectors.keys()], after, upto);
            const shuffled: { k: string; u: string; p: number; h: string; s: string }[] = [];
            for (const [userId, vector] of vectors) {
              const sub = subKey(nonces.get(userId)!, id, userId);
              const parts = splitVector(vector, 2 + randomInt(2));
              parts.forEach((sums, part) => {
                shuffled.push({ k: randomBytes(16).toString('hex'), u: userId, p: part, h: Buffer.from(leafHash(sub, part, sums)).toString('hex'), s: sums.join(',') });
              });
              vector.forEach((v, i) => (totals[i]! += v));
              users++;
              partCount += parts.length;
            }
            await tx.execute(sql`insert into solvency_shuffle (snapshot_id, sort_key, user_id, part, hash, sums)
              select ${id}, decode(x.k, 'hex'), x.u, x.p, decode(x.h, 'hex'), string_to_array(x.s, ',')::numeric[]
              from json_to_recordset(${JSON.stringify(shuffled)}::json) as x(k text, u uuid, p int, h text, s text)`);
          }
          after = upto;
        }

        // The users' vectors add up to the ledger's liabilities, or the snapshot would publish another book.
        const off = ledger.filter((l, i) => BigInt(l.owed) !== totals[i]);
        if (off.length) throw new ApiError(409, `the users' liabilities do not add up to the ledger's in ${off.map((o) => o.currency).join(', ')}`, 'SOLVENCY_UNBALANCED');
        await audit(tx, { actor: by.actor, action: 'solvency.liabilities', target: String(id), after: { users, parts: partCount, currencies, sums: totals.map(String) } });

        // 2. The tree: the parts stream back in the order of their random keys (the shuffle) and fold.
        const leafCount = paddedLeafCount(partCount);
        const root = await buildTree(tx, id, leafCount, currencies.length, page);
        await tx.execute(sql`delete from solvency_shuffle where snapshot_id = ${id}`);
        const rootHex = toHex(root.hash);
        await audit(tx, { actor: by.actor, action: 'solvency.tree', target: String(id), after: { leafCount, root: rootHex } });

        // 3. The header, signed; the reserves and the control of each declared address.
        const header: Header = {
          version: VERSION,
          snapshotId: id,
          takenAt,
          chainId: s.chainId,
          blockNumber: state.blockNumber,
          blockHash: state.blockHash,
          currencies,
          decimals: ledger.map((l) => l.decimals),
          root: rootHex,
          sums: root.sums.map(String),
          leafCount,
        };
        const text = canonicalHeader(header);
        const signature = await signer.signMessage(text);
        const addresses: DeclaredAddress[] = [];
        for (const d of state.declared) {
          const message = controlMessage(s.brandTitle, d.address, id);
          addresses.push({ address: d.address, role: d.role, pool: d.pool, message, signature: await d.sign(message) });
        }
        const reserves = await readReserves(chain, state, currencies);
        await tx.execute(sql`insert into solvency_snapshots (id, day, taken_at, block_number, block_hash, root, leaf_count, users, header, signature, signer, addresses, reserves, taken_by)
          values (${id}, ${by.day ?? null}, ${takenAt}, ${state.blockNumber}, ${state.blockHash}, ${rootHex}, ${leafCount}, ${users}, ${text}, ${signature}, ${signer.address},
                  ${JSON.stringify(addresses)}::jsonb, ${JSON.stringify(reserves)}::jsonb, ${by.actor})`);
        const seconds = (Date.now() - started) / 1000;
        await audit(tx, {
          actor: by.actor,
          action: 'solvency.snapshot',
          target: String(id),
          after: { day: by.day ?? null, blockNumber: state.blockNumber, root: rootHex, leafCount, users, signer: signer.address, addresses: addresses.length, seconds },
        });
        return { id, blockNumber: state.blockNumber, root: rootHex, leafCount, users, currencies, sums: header.sums, seconds };
      },
      { isolationLevel: 'repeatable read' },
    );
  } catch (err) {
    const reason = err instanceof ChainUnavailable ? 'chain unreachable' : err instanceof Error ? err.message : String(err);
    const answer = err instanceof ChainUnavailable ? new ApiError(503, M.solvencyChainUnreachable, 'CHAIN_UNREACHABLE') : err;
    await refuse(reason, answer instanceof ApiError ? answer : new ApiError(500, reason));
    throw answer;
  }
}

/** The reserves at the snapshot's block; read inside the transaction, whose failure then stores nothing. */
async function readReserves(chain: ChainReader, state: ChainState, currencies: string[]) {
  const out: { address: string; currency: string; balance: string }[] = [];
  for (const d of state.declared) {
    for (const currency of currencies) out.push({ address: d.address, currency, balance: String(await balanceAt(chain, d.address, currency, state.blockNumber)) });
  }
  return out;
}

/** Each user's nonce for life, made the first time they are in a snapshot. */
async function noncesOf(tx: Pick<Db, 'execute'>, userIds: string[], after: string, upto: string): Promise<Map<string, Uint8Array>> {
  const read = async () =>
    new Map(
      (await rows<{ user_id: string; nonce: string }>(tx, sql`select user_id::text, encode(nonce, 'hex') as nonce from solvency_nonces where user_id > ${after} and user_id <= ${upto}`)).map(
        (r) => [r.user_id, Buffer.from(r.nonce, 'hex')],
      ),
    );
  let found = await read();
  const missing = userIds.filter((u) => !found.has(u));
  if (missing.length) {
    const fresh = missing.map((u) => ({ u, n: randomBytes(32).toString('hex') }));
    await tx.execute(sql`insert into solvency_nonces (user_id, nonce)
      select x.u, decode(x.n, 'hex') from json_to_recordset(${JSON.stringify(fresh)}::json) as x(u uuid, n text) on conflict (user_id) do nothing`);
    found = await read();
    // Made by a concurrent call after this transaction's snapshot: it cannot be read here; the next run will.
    if (missing.some((u) => !found.has(u))) throw new Error('a nonce was made concurrently; take the snapshot again');
  }
  return found;
}

/** Streams the shuffled parts in key order into the tree; stores every node and where each part sits. */
async function buildTree(tx: Pick<Db, 'execute'>, id: number, leafCount: number, width: number, page: number): Promise<TreeNode> {
  let nodes: { l: number; i: number; h: string; s: string }[] = [];
  const flush = async () => {
    if (!nodes.length) return;
    const batch = nodes;
    nodes = [];
    await tx.execute(sql`insert into solvency_nodes (snapshot_id, level, idx, hash, sums)
      select ${id}, x.l, x.i, decode(x.h, 'hex'), string_to_array(x.s, ',')::numeric[]
      from json_to_recordset(${JSON.stringify(batch)}::json) as x(l int, i bigint, h text, s text)`);
  };
  const tree = new StreamingTree(leafCount, (level, index, node) => {
    nodes.push({ l: level, i: index, h: Buffer.from(node.hash).toString('hex'), s: node.sums.join(',') });
  });
  let leafIndex = 0;
  // One sort of the shuffle table, read a page at a time through a cursor of this transaction.
  await tx.execute(sql`declare solvency_in_order no scroll cursor for
    select user_id::text as u, part as p, encode(hash, 'hex') as h, array_to_string(sums, ',') as s
    from solvency_shuffle where snapshot_id = ${id} order by sort_key`);
  for (;;) {
    const batch = await rows<{ u: string; p: number; h: string; s: string }>(tx, sql`fetch forward ${sql.raw(String(Math.trunc(page)))} from solvency_in_order`);
    if (!batch.length) break;
    const placed = batch.map((b) => ({ u: b.u, p: b.p, i: leafIndex++ }));
    for (const b of batch) tree.push({ hash: Buffer.from(b.h, 'hex'), sums: b.s.split(',').map(BigInt) });
    await tx.execute(sql`insert into solvency_parts (snapshot_id, user_id, part, leaf_index)
      select ${id}, x.u, x.p, x.i from json_to_recordset(${JSON.stringify(placed)}::json) as x(u uuid, p int, i bigint)`);
    if (nodes.length >= page) await flush();
  }
  await tx.execute(sql`close solvency_in_order`);
  // Padding leaves stream through the same flushes: a tree padded to twice its parts stays flat too.
  for (const zero = Array.from({ length: width }, () => 0n); leafIndex < leafCount; leafIndex++) {
    tree.push({ hash: paddingLeafHash(id, leafIndex), sums: zero });
    if (nodes.length >= page) await flush();
  }
  const root = tree.finish(id, width);
  await flush();
  return root;
}
