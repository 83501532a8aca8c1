// Taking a proof-of-solvency snapshot (docs/proof-of-solvency.md): the chain first (the block and
// the reserves at it), then one REPEATABLE READ transaction that reads every user's liabilities,
// splits, shuffles, builds and stores the tree and the signed header. Memory stays flat: users are
// read a page at a time, the parts wait in a file of the process's own, and the tree folds as they stream back.
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { Interface, getAddress } from 'ethers';
import { apiMessages as M, type DeclaredAddress } from '@app/contracts';
import { VERSION, canonicalHeader, paddedLeafCount, type Header } from '@app/solvency';
import { ERC20_ABI, TOKENS } from '@app/web3';
import { ChainUnavailable, type ChainReader } from '../chain';
import { audit } from '../db/audit';
import type { Db } from '../db/client';
import { rows } from '../db/rows';
import { ApiError } from '../http/errors';
import type { PayoutSigner } from '../payouts';
import { RECORD, recordSize, type DealtPage, type OwedPage } from './deal';
import { Randomness, sumsOf, type Node } from './tree';
import { TreeWorker, type PackedBlocks } from './tree-worker';

export { PartBudget, splitVector } from './deal';

export type SnapshotSettings = {
  chainId: number;
  /** The snapshot's block is at least this many blocks behind the head. */
  confirmations: number;
  /** Signs the header: the signer process's solvency key (the API holds none); null when there is none. */
  solvency: HeaderSigner | null;
  /** The brand title the control messages name. */
  brandTitle: string;
  /** The signer, which holds the deposit addresses', the float's and the treasury's keys and signs their control messages. */
  custody: PayoutSigner | null;
  /** Users read per statement. */
  pageSize?: number;
  /** Parts per bucket of the shuffle, about: what the build holds in memory at once. */
  shuffleBucket?: number;
};

/** The published solvency address and what signs the canonical header with its key (EIP-191). */
export type HeaderSigner = { address: string; signMessage: (header: string) => Promise<string> };

export type SnapshotTaken = { id: number; blockNumber: number; root: string; leafCount: number; users: number; currencies: string[]; sums: string[]; seconds: number };

/** Withdrawals whose amount the ledger still owes (reserved, not paid, not returned). */
const UNPAID = sql`('requested', 'awaiting_approval', 'waiting_funds', 'sending', 'cancelling')`;
/** Referral rewards the ledger owes and no claim has taken yet (a claim's are in its withdrawal). */
const REWARDS_OWED = sql`('vesting', 'earned')`;

export const controlMessage = (brandTitle: string, address: string, snapshotId: number) =>
  `${brandTitle} solvency: ${address} belongs to the operator at snapshot ${snapshotId}`;

const erc20 = new Interface(ERC20_ABI as unknown as string[]);
const hexBlock = (n: number) => `0x${n.toString(16)}`;

export async function balanceAt(chain: ChainReader, address: string, currency: string, block: number): Promise<bigint> {
  if (currency === 'ETH') return BigInt(await chain.call<string>('eth_getBalance', [address, hexBlock(block)]));
  const token = TOKENS[1][currency as keyof (typeof TOKENS)[1]];
  // A currency with no token on chain 1 is held nowhere we can read: no reserve is claimed for it.
  if (!token) return 0n;
  const data = erc20.encodeFunctionData('balanceOf', [address]);
  return BigInt(await chain.call<string>('eth_call', [{ to: token.address, data }, hexBlock(block)]));
}

/** `awaitsProof`: its key is offline, so its message is signed later (attest.ts) and its balances wait for it. */
type Declared = { address: string; role: DeclaredAddress['role']; pool: string | null; sign: (message: string) => Promise<string | null>; awaitsProof?: true };

/**
 * The operator's addresses: each pool's deposit address, the float and the treasury (their keys
 * are the signer's, which signs the control messages), and the cold address (declared awaiting its
 * proof: the signer does not hold its key).
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
  if (custody?.cold && !out.some((d) => d.address.toLowerCase() === custody.cold)) {
    out.push({ address: getAddress(custody.cold), role: 'cold', pool: null, sign: async () => null, awaitsProof: true });
  }
  if (custody?.treasury && !out.some((d) => d.address.toLowerCase() === custody.treasury)) out.push({ address: getAddress(custody.treasury), role: 'treasury', pool: null, sign: signedBy(custody.treasury) });
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

/**
 * The ledger's liabilities per currency (positions, in flight, referral rewards payable), and each
 * currency's decimals. The positions' part is the pools' totals kept with their balances (0021,
 * checked by the ledger check): a read of every position account would hold up the snapshot's
 * start by a scan of them all. The users' vectors are then summed apart and must come to the same.
 */
async function ledgerLiabilities(tx: Pick<Db, 'execute'>) {
  return rows<{ currency: string; decimals: number; owed: string }>(
    tx,
    sql`select x.currency, c.decimals, (-sum(x.balance))::text as owed
        from (
          select currency, balance from pool_totals
          union all
          select currency, balance from ledger_accounts where kind in ('withdrawals_in_flight', 'referral_rewards_payable')
        ) x join currencies c on c.code = x.currency
        group by x.currency, c.decimals, c.sort
        having sum(x.balance) <> 0
        order by c.sort, x.currency`,
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
  if (!s.solvency) throw await refuse('no solvency key', new ApiError(503, M.solvencyNoKey, 'SOLVENCY_NO_KEY'));
  const signer = s.solvency;
  let state: ChainState;
  try {
    state = await readChain(db, chain, s);
  } catch (err) {
    if (err instanceof ChainUnavailable) throw await refuse(`chain unreachable: ${err.message}`, new ApiError(503, M.solvencyChainUnreachable, 'CHAIN_UNREACHABLE'));
    throw err;
  }
  const page = s.pageSize ?? 2000;
  // The tree's thread loads while the liabilities are read.
  const hasher = new TreeWorker();
  let deal = null as Deal | null;
  try {
    return await db.transaction(
      async (tx) => {
        const takenAt = new Date().toISOString();
        const [next] = await rows<{ id: number }>(tx, sql`select (coalesce(max(id), 0) + 1)::int as id from solvency_snapshots`);
        const id = next!.id;
        const ledger = await ledgerLiabilities(tx);
        const currencies = ledger.map((l) => l.currency);
        const column = new Map(currencies.map((c, i) => [c, i]));
        const width = currencies.length;

        // 1. Liabilities per user, streamed in user order by one query; the tree's thread splits each
        // user's vector and deals the parts into random buckets, a page at a time, while the next is read.
        const [counted] = await rows<{ n: number }>(tx, sql`select count(*)::int as n from users`);
        const buckets = Math.max(1, Math.ceil(paddedLeafCount(2 * counted!.n) / (s.shuffleBucket ?? 16_384)));
        const dealt = (deal = new Deal(buckets, width));
        hasher.deal({ snapshotId: id, buckets, width, users: counted!.n });
        await dealt.open();
        // Each user's nonce comes with their amounts; one made the first time they are in a snapshot.
        // Groups by sorting rather than hashing: the planner expects far fewer groups than one per
        // user and currency, and the hash table would spill to disk in batches before the sort by user.
        const [planner] = await rows<{ hashagg: string }>(tx, sql`select current_setting('enable_hashagg') as hashagg`);
        await tx.execute(sql`select set_config('enable_hashagg', 'off', true)`);
        await tx.execute(sql`declare solvency_owed no scroll cursor for
          select o.u::text as u, o.c, o.v::text as v, encode(n.nonce, 'hex') as n from (
            select user_id as u, currency as c, sum(owed) as v from (
              select user_id, currency, -balance as owed from ledger_accounts where kind = 'position'
              union all
              select user_id, currency, amount from withdrawals where status in ${UNPAID}
              union all
              -- The rewards owed, from their kept totals per referrer, currency and state (0022, held to the
              -- day rows by ledger check --full): one row per referrer, however many days wait to vest or be claimed.
              select user_id, currency, amount from referral_reward_totals where status in ${REWARDS_OWED} and amount <> 0
              union all
              -- A pool day's parts done and the day not yet marked: their sums are credited to rewards payable already.
              select user_id, currency, amount from referral_part_sums
            ) x group by user_id, currency
          ) o left join solvency_nonces n on n.user_id = o.u order by o.u`);
        await tx.execute(sql`select set_config('enable_hashagg', ${planner!.hashagg}, true)`);
        type Owed = { u: string; c: string; v: string; n: string | null };
        const fetchSize = page * Math.max(1, width);
        const fetchNext = () => rows<Owed>(tx, sql`fetch forward ${sql.raw(String(Math.trunc(fetchSize)))} from solvency_owed`);
        let ahead = fetchNext();
        let carried: Owed[] = [];
        // Pages at the thread: one dealt while the next waits, so neither thread waits for the other.
        let atThread = 0;
        for (let done = false; !done; ) {
          const fetched = await ahead;
          done = fetched.length < fetchSize;
          // The next rows are read while these are dealt.
          if (!done) ahead = fetchNext();
          const owed = carried.concat(fetched);
          // The last user's amounts may go on in the next fetch: they wait for it.
          let cut = owed.length;
          while (!done && cut > 0 && owed[cut - 1]!.u === owed[owed.length - 1]!.u) cut--;
          carried = owed.slice(cut);
          const batch: OwedPage = { users: [], amounts: [], nonces: [] };
          const missing: number[] = [];
          let last: string | null = null;
          for (let i = 0; i < cut; i++) {
            const o = owed[i]!;
            // Integers' text (the sum of numeric amounts): a sign, or the one zero, is all there is to check here.
            if (o.v.startsWith('-')) throw new ApiError(409, `a negative liability (${o.c}) aborts the snapshot: run ledger check`, 'SOLVENCY_NEGATIVE');
            const c = column.get(o.c);
            if (o.v === '0') continue;
            if (c === undefined) throw new ApiError(409, `a user is owed ${o.c}, which the ledger's totals do not hold`, 'SOLVENCY_UNBALANCED');
            if (o.u !== last) {
              last = o.u;
              if (!o.n) missing.push(batch.users.length);
              batch.users.push(o.u);
              batch.nonces.push(o.n ?? '');
              for (let k = 0; k < width; k++) batch.amounts.push('0');
            }
            batch.amounts[(batch.users.length - 1) * width + c] = o.v;
          }
          if (!batch.users.length) continue;
          if (missing.length) {
            const made = await makeNonces(tx, missing.map((i) => batch.users[i]!));
            for (const i of missing) batch.nonces[i] = made.get(batch.users[i]!)!;
          }
          hasher.owe(batch);
          for (atThread++; atThread > 1; atThread--) await dealt.flush(await hasher.dealt());
        }
        for (; atThread > 0; atThread--) await dealt.flush(await hasher.dealt());
        const { users, parts: partCount, sums } = await hasher.dealTotals();
        const totals = sums.map(BigInt);
        await tx.execute(sql`close solvency_owed`);

        // The users' vectors add up to the ledger's liabilities, or the snapshot would publish another book.
        const off = ledger.filter((l, i) => BigInt(l.owed) !== totals[i]);
        if (off.length) throw new ApiError(409, `the users' liabilities do not add up to the ledger's in ${off.map((o) => o.currency).join(', ')}`, 'SOLVENCY_UNBALANCED');
        await audit(tx, { actor: by.actor, action: 'solvency.liabilities', target: String(id), after: { users, parts: partCount, currencies, sums: totals.map(String) } });

        // 2. The tree: bucket by bucket, each bucket's parts in a random order (the shuffle), folded as they come.
        const leafCount = paddedLeafCount(partCount);
        const root = await buildTree(tx, id, leafCount, partCount, dealt, hasher);
        const rootHex = `0x${root.hash}`;
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
          sums: sumsOf(root).map(String),
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
  } finally {
    await deal?.close();
    await hasher.close();
  }
}

/** The reserves at the snapshot's block; read inside the transaction, whose failure then stores nothing. */
async function readReserves(chain: ChainReader, state: ChainState, currencies: string[]) {
  const out: { address: string; currency: string; balance: string }[] = [];
  for (const d of state.declared) {
    // Never counted without its proof of control: read when an operator submits it (attest.ts).
    if (d.awaitsProof) continue;
    for (const currency of currencies) out.push({ address: d.address, currency, balance: String(await balanceAt(chain, d.address, currency, state.blockNumber)) });
  }
  return out;
}

/** Nonces for life for users who have none yet, in hex. */
async function makeNonces(tx: Pick<Db, 'execute'>, userIds: string[]): Promise<Map<string, string>> {
  const fresh = randomBytes(32 * userIds.length).toString('hex');
  const made = await rows<{ u: string; n: string }>(
    tx,
    sql`insert into solvency_nonces (user_id, nonce)
        select x.u, decode(x.n, 'hex') from unnest(${arrayLiteral(userIds)}::uuid[], ${arrayLiteral(userIds.map((_, i) => fresh.slice(i * 64, i * 64 + 64)))}::text[]) as x(u, n)
        on conflict (user_id) do nothing returning user_id::text as u, encode(nonce, 'hex') as n`,
  );
  // Made by a concurrent call after this transaction's snapshot: it cannot be read here; the next run will.
  if (made.length < userIds.length) throw new Error('a nonce was made concurrently; take the snapshot again');
  return new Map(made.map((m) => [m.u, m.n]));
}

/**
 * Statements sent without waiting for them, at most one at a time: the database writes one batch
 * while the next is hashed. A failure is thrown by the next send or by drain.
 */
class Pipeline {
  private last: Promise<unknown> = Promise.resolve();

  async send(statement: () => Promise<unknown>): Promise<void> {
    await this.last;
    // A query builder runs each time it is awaited: made a promise once, it runs once.
    this.last = Promise.resolve(statement());
    this.last.catch(() => undefined);
  }

  drain(): Promise<unknown> {
    return this.last;
  }
}

/** A text literal of a PostgreSQL array: one parameter for a whole batch of rows. */
const arrayLiteral = (items: readonly (string | number)[]) => `{${items.map((i) => `"${i}"`).join(',')}}`;

/** A part's place, as the snapshot sends it: the user id's 16 bytes and the part, as they lie in a record. */
const PLACED = 17;

/**
 * Bytes of one bucket held before they go to the file, enough that a bucket is read back in a few
 * long reads; and of all buckets at once, so that more buckets (more users) hold no more memory.
 */
const HELD_PER_BUCKET = 1 << 17;
const HELD = 1 << 24;

/**
 * The shuffle's first half: each part, as the bytes of one record (user, part, sub, sums: `RECORD`),
 * goes to a bucket drawn at random (by the tree's thread: deal.ts), a page of users at a time.
 * Reading the buckets in order and each one's parts in a random order is a uniform shuffle of all
 * the parts, with one bucket in memory at a time. The buckets wait in a file of this process's own,
 * not in the database, which would take them in and give them back as text: each bucket gathers in
 * memory up to its share of `HELD`, which then goes to the file's end in one write, and where each
 * run lies is kept. The file is unlinked once opened: nothing of it outlives the process.
 */
class Deal extends Pipeline {
  readonly rng = new Randomness();
  readonly recordSize: number;
  private file: FileHandle | null = null;
  private end = 0;
  /** Each bucket's runs in the file, as offset and length one after the other. */
  private readonly runs: number[][];
  private readonly held: (Buffer | null)[];
  private readonly filled: Uint32Array;
  private readonly room: number;

  constructor(
    readonly buckets: number,
    readonly width: number,
  ) {
    super();
    this.recordSize = recordSize(width);
    this.runs = Array.from({ length: buckets }, () => []);
    this.held = new Array<Buffer | null>(buckets).fill(null);
    this.filled = new Uint32Array(buckets);
    this.room = Math.max(1, Math.floor(Math.min(HELD_PER_BUCKET, HELD / buckets) / this.recordSize)) * this.recordSize;
  }

  async open(): Promise<void> {
    const dir = await mkdtemp(path.join(tmpdir(), 'solvency-deal-'));
    try {
      this.file = await open(path.join(dir, 'buckets'), 'w+', 0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async close(): Promise<void> {
    await this.drain().catch(() => undefined);
    await this.file?.close();
    this.file = null;
  }

  /** A page's records, each bucket's added to what it holds; a bucket full goes to the file. */
  async flush(page: DealtPage): Promise<void> {
    const records = Buffer.from(page.records.buffer, page.records.byteOffset, page.records.byteLength);
    for (let i = 0, from = 0; i < page.buckets.length; i++) {
      const b = page.buckets[i]!;
      const to = from + page.lengths[i]! * this.recordSize;
      while (from < to) {
        const held = (this.held[b] ??= Buffer.allocUnsafeSlow(this.room));
        const n = records.copy(held, this.filled[b]!, from, to);
        from += n;
        this.filled[b]! += n;
        if (this.filled[b] === held.length) await this.spill(b);
      }
    }
  }

  /** What every bucket still holds, to the file. */
  async finish(): Promise<void> {
    for (let b = 0; b < this.buckets; b++) if (this.filled[b]) await this.spill(b);
    await this.drain();
  }

  private async spill(b: number): Promise<void> {
    const bytes = this.held[b]!;
    const length = this.filled[b]!;
    const at = this.end;
    this.end += length;
    this.runs[b]!.push(at, length);
    // A buffer written is the write's until it is done: the bucket starts a new one.
    this.held[b] = null;
    this.filled[b] = 0;
    const file = this.file!;
    await this.send(async () => {
      for (let done = 0; done < length; ) done += (await file.write(bytes, done, length - done, at + done)).bytesWritten;
    });
  }

  private async read(b: number): Promise<Buffer> {
    const runs = this.runs[b]!;
    let total = 0;
    for (let i = 1; i < runs.length; i += 2) total += runs[i]!;
    const bytes = Buffer.allocUnsafeSlow(total);
    for (let i = 0, to = 0; i < runs.length; i += 2) {
      for (let done = 0; done < runs[i + 1]!; ) {
        const { bytesRead } = await this.file!.read(bytes, to + done, runs[i + 1]! - done, runs[i]! + done);
        if (!bytesRead) throw new Error('the deal\'s file ended early');
        done += bytesRead;
      }
      to += runs[i + 1]!;
    }
    return bytes;
  }

  /**
   * One bucket's records as read, and the random order of them that is the shuffle's (`order[i]`:
   * the record that comes i-th); `placed`, each one's user id bytes and part (`PLACED` bytes a part)
   * in that order.
   */
  async *shuffled(): AsyncGenerator<{ records: Buffer; order: Uint32Array; placed: Buffer; count: number }> {
    await this.finish();
    const size = this.recordSize;
    let next = this.read(0);
    for (let b = 0; b < this.buckets; b++) {
      // A buffer of its own (not a view of the shared pool): it is handed to the tree's thread whole.
      const records = await next;
      // The next bucket is read while this one is folded.
      if (b + 1 < this.buckets) next = this.read(b + 1);
      const count = records.length / size;
      const order = this.rng.permutation(count);
      const placed = Buffer.allocUnsafeSlow(count * PLACED);
      for (let k = 0; k < count; k++) {
        // The user's 16 bytes and the part that follows them in the record.
        const at = order[k]! * size + RECORD.user;
        records.copy(placed, k * PLACED, at, at + PLACED);
      }
      yield { records, order, placed, count };
    }
  }
}

/** `solvency_blocks` rows of packed blocks: one binary parameter, each row its slice of hashes and of sums. */
function blockRows(id: number, p: PackedBlocks, width: number) {
  const starts: number[] = [];
  let at = 0;
  for (const n of p.counts) {
    starts.push(at);
    at += n * 32 * (1 + width);
  }
  const bytes = Buffer.from(p.bytes.buffer, p.bytes.byteOffset, p.bytes.byteLength);
  return sql`insert into solvency_blocks (snapshot_id, level, block, hashes, sums)
    select ${id}, l, b, substring(d.v from a + 1 for n * 32), substring(d.v from a + 1 + n * 32 for n * ${32 * width})
    from (select ${bytes}::bytea as v) d,
         unnest(${arrayLiteral(p.levels)}::smallint[], ${arrayLiteral(p.blocks)}::bigint[], ${arrayLiteral(starts)}::int[], ${arrayLiteral(p.counts)}::int[]) as x(l, b, a, n)`;
}

/**
 * Streams the dealt parts into the tree in their shuffled order; stores the tree's blocks and where
 * each part sits. The hashing is the tree's thread's: this one reads the next bucket, and writes
 * each bucket's parts and the blocks the thread hands back, with at most two buckets at the thread.
 */
async function buildTree(tx: Pick<Db, 'execute'>, id: number, leafCount: number, partCount: number, dealt: Deal, hasher: TreeWorker): Promise<Node> {
  const writes = new Pipeline();
  hasher.begin(id, leafCount, partCount, dealt.width);
  // Where each part sits is known bucket by bucket, in a random order of users; written so into the
  // parts' primary key, each row would land on a page of its own. They wait in a table without an
  // index, and go into solvency_parts sorted by user once the last bucket is read.
  await tx.execute(sql`create temp table solvency_placed (user_id uuid not null, part int not null, leaf_index bigint not null) on commit drop`);
  const store = async (p: PackedBlocks) => {
    if (p.counts.length) await writes.send(() => tx.execute(blockRows(id, p, dealt.width)));
  };
  try {
    let placed = 0;
    let atThread = 0;
    for await (const bucket of dealt.shuffled()) {
      if (!bucket.count) continue;
      const first = placed;
      placed += bucket.count;
      hasher.push(bucket.records, bucket.order);
      atThread++;
      // One binary parameter, cut into rows here: an array of ids as text costs more to parse than the rest of the insert.
      await writes.send(() =>
        tx.execute(sql`insert into solvency_placed (user_id, part, leaf_index)
          select encode(substring(d.v from i * ${PLACED}::int + 1 for 16), 'hex')::uuid, get_byte(d.v, i * ${PLACED}::int + 16), ${first}::bigint + i
          from (select ${bucket.placed}::bytea as v) d, generate_series(0, ${bucket.count - 1}::int) as i`),
      );
      for (; atThread > 1; atThread--) await store((await hasher.next()).packed);
    }
    // While the thread hashes the last buckets and the tree's top.
    await writes.send(() =>
      tx.execute(sql`insert into solvency_parts (snapshot_id, user_id, part, leaf_index)
        select ${id}, user_id, part, leaf_index from solvency_placed order by user_id, part`),
    );
    hasher.finish();
    for (; atThread > 0; atThread--) await store((await hasher.next()).packed);
    for (;;) {
      const { packed, root } = await hasher.next();
      await store(packed);
      if (root) {
        await writes.drain();
        return root;
      }
    }
  } finally {
    await writes.drain().catch(() => undefined);
  }
}
