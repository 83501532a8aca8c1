// The server's tree builder and the block storage of migration 0031 (issue 24's 1M-user target):
// its node:crypto format against @app/solvency's (the code the browser verifies with), a snapshot of
// some hundreds of users whose every proof verifies, and a snapshot stored one node per row before
// the migration that still proves after it.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { Wallet } from 'ethers';
import {
  StreamingTree,
  canonicalHeader,
  leafHash,
  paddedLeafCount,
  paddingLeafHash,
  parentNode,
  subKey as nobleSubKey,
  toHex,
  verifyProof,
  type Header,
  type Proof,
  type TreeNode,
} from '@app/solvency';
import { migrationsFolder, type Db } from '../src/db/client';
import { rows } from '../src/db/rows';
import { seed } from '../src/db/seed';
import { createTestDatabase } from './helpers';
import { instantChain as chain, seedPositions } from './solvency-seed';
import { proofOf, takeSnapshot } from '../src/solvency';
import { PartBudget } from '../src/solvency/snapshot';
import { BLOCK, BlockTree, Randomness, blockNodes, leafNode, paddingNode, parentOf, subKey, sumsOf, type Node } from '../src/solvency/tree';

jest.setTimeout(120_000);

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const uuid = () => {
  const h = randomBytes(16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
};
const randomSums = () => [BigInt(`0x${randomBytes(12).toString('hex')}`), BigInt(`0x${randomBytes(20).toString('hex')}`)];

const solvencyKey = `0x${'11'.repeat(32)}`;
const signer = new Wallet(solvencyKey).address;
const settings = { chainId: 1, confirmations: 12, solvency: new Wallet(solvencyKey), brandTitle: 'Test', custody: null, pageSize: 50, shuffleBucket: 64 };

describe('the server\'s tree builder', () => {
  it('writes format v1 byte for byte as @app/solvency does: sub, leaf, padding leaf, node', () => {
    const nonce = randomBytes(32);
    const id = uuid();
    const sums = randomSums();
    const sub = subKey(nonce, 41, id);
    expect(hex(sub)).toBe(hex(nobleSubKey(nonce, 41, id)));
    const leaf = leafNode(sub, 2, sums);
    expect(leaf.hash).toBe(hex(leafHash(sub, 2, sums)));
    // HMAC written out on one-shot SHA-256: every width of message, and a sum at each end of the range.
    for (const width of [1, 2, 3, 5]) {
      const wide = [...Array(width).keys()].map((i) => (i === 0 ? (1n << 256n) - 1n : i === 1 ? 0n : BigInt(`0x${randomBytes(31).toString('hex')}`)));
      for (const part of [0, 1, 7]) expect(leafNode(sub, part, wide).hash).toBe(hex(leafHash(sub, part, wide)));
    }
    const pad = paddingNode(41, 77, 2);
    expect(pad.hash).toBe(hex(paddingLeafHash(41, 77)));
    expect(paddingNode(41, 2 ** 40 + 3, 2).hash).toBe(hex(paddingLeafHash(41, 2 ** 40 + 3)));
    const parent = parentOf(leaf, pad);
    const expected = parentNode({ hash: leafHash(sub, 2, sums), sums }, { hash: paddingLeafHash(41, 77), sums: [0n, 0n] });
    expect(parent.hash).toBe(hex(expected.hash));
    expect(sumsOf(parent)).toEqual(expected.sums);
    // A total that would reach 2^256 is refused, as the shared format refuses it.
    expect(() => parentOf(leafNode(sub, 0, [(1n << 256n) - 1n, 0n]), leafNode(sub, 1, [1n, 0n]))).toThrow();
    expect(() => parentOf(leafNode(sub, 0, [0n, (1n << 256n) - 1n]), leafNode(sub, 1, [0n, 1n]))).toThrow();
    // A carry crosses bytes and stays within its own currency.
    const carried = parentOf(leafNode(sub, 0, [(1n << 200n) - 1n, 255n]), leafNode(sub, 1, [1n, 1n]));
    expect(sumsOf(carried)).toEqual([1n << 200n, 256n]);
  });

  it('folds to @app/solvency\'s root and hands over every fourth level in blocks, leaving out the leaf blocks of padding only', () => {
    // 300 leaves: 512 padded, levels 0 … 9; stored: level 0 (blocks with a real leaf), 4 and 8 (two nodes).
    const count = 300;
    const leaves = Array.from({ length: count }, (_, i) => {
      const sums = randomSums();
      return { ...leafNode(subKey(randomBytes(32), 5, uuid()), i % 3, sums), sums };
    });
    const levels: TreeNode[][] = [];
    const reference = new StreamingTree(512, (level, index, node) => ((levels[level] ??= [])[index] = node));
    leaves.forEach((l) => reference.push({ hash: Buffer.from(l.hash, 'hex'), sums: l.sums }));
    const root = reference.finish(5, 2);

    const blocks = new Map<string, Node[]>();
    const tree = new BlockTree(512, count, 2, (level, block, n, bytes) => blocks.set(`${level}:${block}`, blockNodes(n, bytes, 2)));
    leaves.forEach((l) => tree.push(l));
    const built = tree.finish(5);
    expect(built.hash).toBe(hex(root.hash));
    expect(sumsOf(built)).toEqual(root.sums);

    const expectedKeys = [...Array(Math.ceil(count / BLOCK)).keys()].map((b) => `0:${b}`).concat(['4:0', '4:1', '8:0']);
    expect([...blocks.keys()].sort()).toEqual(expectedKeys.sort());
    for (const [key, nodes] of blocks) {
      const [level, block] = key.split(':').map(Number) as [number, number];
      const size = Math.min(BLOCK, 512 >> level);
      expect(nodes).toHaveLength(size);
      nodes.forEach((n, i) => {
        expect(n.hash).toBe(hex(levels[level]![block * size + i]!.hash));
        expect(sumsOf(n)).toEqual(levels[level]![block * size + i]!.sums);
      });
    }
  });
});

/** Users with positions in USDT and ETH, as bench:solvency seeds them; what each is owed, read back from the ledger. */
async function seedUsers(db: Db, n: number): Promise<Map<string, Record<string, bigint>>> {
  await seedPositions(db, n, 'solv');
  const owed = await rows<{ id: string; currency: string; owed: string }>(
    db,
    sql`select user_id::text as id, currency, (-balance)::text as owed from ledger_accounts where kind = 'position' and user_id is not null`,
  );
  const out = new Map<string, Record<string, bigint>>();
  for (const o of owed) out.set(o.id, { ...out.get(o.id), [o.currency]: BigInt(o.owed) });
  return out;
}

describe('how many parts a user is split into', () => {
  const draw = (users: number) => {
    const budget = new PartBudget(users, new Randomness());
    return Array.from({ length: users }, () => budget.next());
  };

  it('two or three, and never more leaves than two parts each already pad to', () => {
    for (const users of [1, 2, 3, 5, 600, 1000, 1024, 1025, 5000]) {
      const parts = draw(users);
      expect(parts.every((k) => k === 2 || k === 3)).toBe(true);
      expect(parts.reduce((s, k) => s + k, 0)).toBeLessThanOrEqual(paddedLeafCount(2 * users));
    }
  });

  it('third parts fill the room below the power of two, drawn among all the users', () => {
    // 1000 users: two parts each are 2000 leaves, padded to 2048; the 48 free leaves go to third parts.
    const parts = draw(1000);
    const threes = parts.flatMap((k, i) => (k === 3 ? [i] : []));
    expect(threes).toHaveLength(48);
    // Not the first users only: the last half of the users hold some.
    expect(threes.some((i) => i >= 500)).toBe(true);
    // 600 users: room for 848 more, so each user is drawn with a chance of one half.
    const many = draw(600).filter((k) => k === 3).length;
    expect(many).toBeGreaterThan(200);
    expect(many).toBeLessThan(400);
  });
});

describe('a snapshot stored in blocks', () => {
  it('of 400 users: every user\'s proof verifies in the browser\'s verifier and adds up to what the test wrote they are owed', async () => {
    const { database: { db }, drop: close } = await createTestDatabase();
    try {
      await seed(db);
      const owed = await seedUsers(db, 400);
      const taken = await takeSnapshot(db, chain, settings, { actor: 'test' });
      expect(taken.users).toBe(400);
      const [parts] = await rows<{ n: number }>(db, sql`select count(*)::int as n from solvency_parts where snapshot_id = ${taken.id}`);
      expect(taken.leafCount).toBe(paddedLeafCount(parts!.n));
      // Leaf blocks: those that hold a real leaf, and no more; above them every fourth level below the root.
      const stored = await rows<{ level: number; n: number }>(db, sql`select level, count(*)::int as n from solvency_blocks where snapshot_id = ${taken.id} group by level order by level`);
      const height = Math.log2(taken.leafCount);
      expect(stored).toEqual(
        [0, 4, 8, 12].filter((l) => l < height).map((level) => ({ level, n: level === 0 ? Math.ceil(parts!.n / BLOCK) : Math.ceil(taken.leafCount / 2 ** level / BLOCK) })),
      );
      expect([...taken.currencies].sort()).toEqual(['ETH', 'USDT']);
      expect(taken.sums).toEqual(taken.currencies.map((c) => String([...owed.values()].reduce((s, v) => s + v[c]!, 0n))));
      for (const [id, expected] of owed) {
        const proof = JSON.parse(JSON.stringify(await proofOf(db, id))) as Proof;
        const verdict = verifyProof(proof, { signer, expectedBalances: proof.header.currencies.map((c) => expected[c]!) });
        expect(verdict.checks.filter((c) => !c.ok)).toEqual([]);
      }
    } finally {
      await close();
    }
  });
});

describe('migration 0031', () => {
  it('a snapshot stored one node per row before it still proves after it, for every user', async () => {
    // The migrations up to 0030, then a snapshot written as the code before 0031 stored one, then 0031.
    const before = mkdtempSync(path.join(tmpdir(), 'solvency-0030-'));
    const client = await PGlite.create();
    try {
      cpSync(migrationsFolder, before, { recursive: true });
      const journalFile = path.join(before, 'meta/_journal.json');
      const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
      journal.entries = journal.entries.filter((e) => e.tag < '0031');
      writeFileSync(journalFile, JSON.stringify(journal));
      const db = drizzle({ client }) as unknown as Db;
      await migrate(db as never, { migrationsFolder: before });

      const snapshotId = 3;
      const users = Array.from({ length: 20 }, () => ({ id: uuid(), nonce: randomBytes(32), parts: [randomSums(), randomSums(), randomSums()] }));
      const placed = users.flatMap((u) => u.parts.map((sums, part) => ({ u, part, sums })));
      // In a random order, as a snapshot's parts are.
      const order = new Map(placed.map((p) => [p, randomBytes(6).readUIntBE(0, 6)]));
      placed.sort((a, b) => order.get(a)! - order.get(b)!);
      const leafCount = paddedLeafCount(placed.length);
      const nodes: { level: number; index: number; node: TreeNode }[] = [];
      const tree = new StreamingTree(leafCount, (level, index, node) => nodes.push({ level, index, node }));
      for (const p of placed) tree.push({ hash: leafHash(nobleSubKey(p.u.nonce, snapshotId, p.u.id), p.part, p.sums), sums: p.sums });
      const root = tree.finish(snapshotId, 2);
      const header: Header = {
        version: 'pol-v1',
        snapshotId,
        takenAt: '2026-11-20T00:00:00.000Z',
        chainId: 1,
        blockNumber: 90,
        blockHash: `0x${'cd'.repeat(32)}`,
        currencies: ['USDT', 'ETH'],
        decimals: [6, 18],
        root: toHex(root.hash),
        sums: root.sums.map(String),
        leafCount,
      };
      const text = canonicalHeader(header);
      const signature = await new Wallet(solvencyKey).signMessage(text);
      for (const u of users) {
        await db.execute(sql`insert into users (id, email, referral_code, role) values (${u.id}, ${`${u.id}@example.com`}, ${u.id.slice(0, 8)}, 'user')`);
        await db.execute(sql`insert into solvency_nonces (user_id, nonce) values (${u.id}, decode(${u.nonce.toString('hex')}, 'hex'))`);
      }
      await db.execute(sql`insert into solvency_snapshots (id, taken_at, block_number, block_hash, root, leaf_count, users, header, signature, signer, addresses, reserves, taken_by)
        values (${snapshotId}, ${header.takenAt}, 90, ${header.blockHash}, ${header.root}, ${leafCount}, ${users.length}, ${text}, ${signature}, ${signer}, '[]'::jsonb, '[]'::jsonb, 'test')`);
      for (const n of nodes) {
        await db.execute(sql`insert into solvency_nodes (snapshot_id, level, idx, hash, sums)
          values (${snapshotId}, ${n.level}, ${n.index}, decode(${hex(n.node.hash)}, 'hex'), ${`{${n.node.sums.join(',')}}`}::numeric[])`);
      }
      for (const [i, p] of placed.entries()) {
        await db.execute(sql`insert into solvency_parts (snapshot_id, user_id, part, leaf_index) values (${snapshotId}, ${p.u.id}, ${p.part}, ${i})`);
      }

      await migrate(db as never, { migrationsFolder });
      const [tables] = await rows<{ nodes: string | null }>(db, sql`select to_regclass('solvency_nodes')::text as nodes`);
      expect(tables!.nodes).toBeNull();
      for (const u of users) {
        const proof = JSON.parse(JSON.stringify(await proofOf(db, u.id, snapshotId))) as Proof;
        const verdict = verifyProof(proof, { signer, expectedBalances: [0, 1].map((c) => u.parts.reduce((s, p) => s + p[c]!, 0n)) });
        expect(verdict.checks.filter((c) => !c.ok)).toEqual([]);
        expect(proof.parts.map((p) => p.part)).toEqual([0, 1, 2]);
      }
    } finally {
      await client.close();
      rmSync(before, { recursive: true, force: true });
    }
  });
});
