// Reading snapshots back: the public list and one snapshot, and a user's proof (their parts' paths
// from the stored blocks, one indexed query, and the levels between them recomputed).
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { apiMessages as M, type DeclaredAddress, type SolvencyHeader, type SolvencyProof, type SolvencySnapshot } from '@app/contracts';
import { pathIndices } from '@app/solvency';
import type { Db } from '../db/client';
import { preparedRows, rows } from '../db/rows';
import { ApiError } from '../http/errors';
import { BLOCK, BLOCK_LEVELS, blockSize, foldBlock, sumsOf, type Node } from './tree';

/** How many snapshots the public list carries, newest first. */
const HISTORY = 30;

/** A reserve as stored: the address's role is its declaration's. */
export type StoredReserve = { address: string; currency: string; balance: string };
type SnapshotRow = { id: number; header: string; signature: string; signer: string; addresses: DeclaredAddress[]; reserves: StoredReserve[] };

/** Each reserve with its address's role and pools, so the public reserves group by them. */
function reservesOf(addresses: DeclaredAddress[], reserves: StoredReserve[]): SolvencySnapshot['reserves'] {
  const declared = new Map(addresses.map((a) => [a.address.toLowerCase(), a]));
  return reserves.flatMap((r) => {
    const a = declared.get(r.address.toLowerCase());
    // A balance counts only at an address declared, and proven, in this snapshot.
    return a && a.signature !== null ? [{ address: r.address, role: a.role, pool: a.pool, currency: r.currency, balance: r.balance }] : [];
  });
}

const asSnapshot = (r: SnapshotRow): SolvencySnapshot => ({
  // The stored text is what was signed; parsing it keeps its key order.
  header: JSON.parse(r.header) as SolvencyHeader,
  signature: r.signature,
  signer: r.signer,
  addresses: r.addresses,
  reserves: reservesOf(r.addresses, r.reserves),
});

const columns = sql`id, header, signature, signer, addresses, reserves`;

export async function listSnapshots(db: Pick<Db, 'execute'>, limit = HISTORY): Promise<SolvencySnapshot[]> {
  return (await rows<SnapshotRow>(db, sql`select ${columns} from solvency_snapshots order by id desc limit ${limit}`)).map(asSnapshot);
}

export async function snapshotById(db: Pick<Db, 'execute'>, id: number): Promise<SolvencySnapshot> {
  const [r] = await rows<SnapshotRow>(db, sql`select ${columns} from solvency_snapshots where id = ${id}`);
  if (!r) throw new ApiError(404, M.solvencyUnknownSnapshot, 'SOLVENCY_UNKNOWN_SNAPSHOT');
  return asSnapshot(r);
}

/** The account's nonce for life, made on first read (the snapshot job makes it too, whichever comes first). */
export async function nonceOf(db: Pick<Db, 'execute'>, userId: string): Promise<string> {
  await db.execute(sql`insert into solvency_nonces (user_id, nonce) values (${userId}, decode(${randomBytes(32).toString('hex')}, 'hex')) on conflict (user_id) do nothing`);
  const [r] = await rows<{ nonce: string }>(db, sql`select encode(nonce, 'hex') as nonce from solvency_nonces where user_id = ${userId}`);
  return `0x${r!.nonce}`;
}

/** The nonce and the snapshots the account is in, newest first. */
export async function mine(db: Pick<Db, 'execute'>, userId: string) {
  const nonce = await nonceOf(db, userId);
  const snapshots = await rows<{ snapshotId: number; blockNumber: number; takenAt: string }>(
    db,
    sql`select s.id as "snapshotId", s.block_number::int as "blockNumber", to_char(s.taken_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "takenAt"
        from solvency_snapshots s where exists (select 1 from solvency_parts p where p.snapshot_id = s.id and p.user_id = ${userId})
        order by s.id desc limit ${HISTORY}`,
  );
  return { nonce, snapshots };
}

type Snapshot = { id: number; header: string; signature: string; leaf_count: string };

/** A user's proof in a snapshot (the latest when none is named). */
export async function proofOf(db: Pick<Db, 'execute'>, userId: string, snapshot?: number): Promise<SolvencyProof> {
  const [s] =
    snapshot === undefined
      ? await preparedRows<Snapshot>(db, 'solvency-latest', sql`select id, header, signature, leaf_count::text from solvency_snapshots order by id desc limit 1`)
      : await preparedRows<Snapshot>(db, 'solvency-snapshot', sql`select id, header, signature, leaf_count::text from solvency_snapshots where id = ${snapshot}`);
  if (!s) throw new ApiError(404, snapshot === undefined ? M.solvencyNoSnapshot : M.solvencyUnknownSnapshot, snapshot === undefined ? 'SOLVENCY_NO_SNAPSHOT' : 'SOLVENCY_UNKNOWN_SNAPSHOT');
  const leafCount = Number(s.leaf_count);
  const header = JSON.parse(s.header) as SolvencyHeader;
  const width = header.currencies.length;
  const height = Math.log2(leafCount);
  // One query: the user's parts, and for each the block of every stored level its path crosses (16
  // nodes, the floor of the next four levels), each block one primary-key lookup (the `limit 1`
  // keeps it one, whatever the statistics of a snapshot just written make the planner think). A
  // user in the snapshot has had a nonce since it was taken: read with the parts, never written here.
  const found = await preparedRows<{ part: number; leaf_index: string; nonce: string; level: number; block: string; hashes: string; sums: string }>(
    db,
    'solvency-proof',
    sql`select p.part, p.leaf_index::text, encode(n.nonce, 'hex') as nonce, b.level, b.block::text, encode(b.hashes, 'hex') as hashes, encode(b.sums, 'hex') as sums
        from solvency_parts p join solvency_nonces n on n.user_id = p.user_id
        cross join lateral generate_series(0, ${Math.max(0, height - 1)}::int, ${BLOCK_LEVELS}::int) as l(level)
        cross join lateral (
          select level, block, hashes, sums from solvency_blocks
          where snapshot_id = p.snapshot_id and level = l.level and block = (p.leaf_index >> l.level) / least(${BLOCK}::bigint, greatest(1, ${leafCount}::bigint >> l.level))
          limit 1
        ) b
        where p.snapshot_id = ${s.id} and p.user_id = ${userId}
        order by p.part, b.level`,
  );
  if (!found.length) throw new ApiError(404, M.solvencyNotIncluded, 'SOLVENCY_NOT_INCLUDED');
  const parts = [...new Map(found.map((f) => [f.part, f])).values()];
  // Each block folded up to the next stored level: the siblings of every level between.
  const folded = new Map<string, Node[][]>();
  for (const f of found) {
    const key = `${f.level}:${f.block}`;
    if (folded.has(key)) continue;
    const hashes = f.hashes.length / 64;
    const sums = Buffer.from(f.sums, 'hex');
    if (sums.length !== 32 * width * hashes) throw new Error(`snapshot ${s.id}: block ${key} holds ${hashes} hashes and ${sums.length} bytes of sums`);
    const nodes = Array.from({ length: hashes }, (_, i) => ({ hash: f.hashes.slice(i * 64, i * 64 + 64), encoded: sums.subarray(i * 32 * width, (i + 1) * 32 * width) }));
    folded.set(key, foldBlock(nodes));
  }
  const node = (level: number, index: number) => {
    const base = level - (level % BLOCK_LEVELS);
    // Of a block of `size` nodes at the stored level below, this level holds size / 2^up.
    const across = blockSize(leafCount, base) / 2 ** (level - base);
    const n = folded.get(`${base}:${Math.floor(index / across)}`)?.[level - base]?.[index % across];
    if (!n) throw new Error(`snapshot ${s.id} lacks node ${level}:${index}`);
    return { hash: `0x${n.hash}`, sums: sumsOf(n).map(String) };
  };
  return {
    header,
    signature: s.signature,
    userId,
    nonce: `0x${parts[0]!.nonce}`,
    parts: parts.map((p) => {
      const leafIndex = Number(p.leaf_index);
      return {
        part: p.part,
        sums: node(0, leafIndex).sums,
        leafIndex,
        path: pathIndices(leafIndex, leafCount).map(({ level, index, side }) => ({ ...node(level, index), side })),
      };
    }),
  };
}
