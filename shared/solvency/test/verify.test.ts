// The verifier against the known attacks on Merkle sum trees. Each tree here is built with the
// production format functions; the bytes of those functions are pinned separately against
// node:crypto (format.test.ts), so a test here cannot pass by a fault shared with the builder.
import { randomBytes } from 'node:crypto';
import { Wallet } from 'ethers';
import {
  StreamingTree,
  canonicalHeader,
  leafHash,
  paddedLeafCount,
  parentNode,
  pathIndices,
  subKey,
  toHex,
  verifyProof,
  type Header,
  type Proof,
  type TreeNode,
} from '../src';

const operator = new Wallet('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b7690d2');
const stranger = new Wallet(Wallet.createRandom().privateKey);

interface User {
  id: string;
  nonce: Uint8Array;
  parts: bigint[][];
}

function uuid(): string {
  const h = randomBytes(16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
}

function user(parts: bigint[][]): User {
  return { id: uuid(), nonce: randomBytes(32), parts };
}

interface Built {
  header: Header;
  levels: TreeNode[][];
  where: Map<string, number[]>;
}

const SNAPSHOT = 7;
const CURRENCIES = ['USDT', 'ETH'];

/** An honest tree of these users' parts, in the given order, padded; `tamper` may rewrite leaves first. */
function build(users: User[], tamper?: (leaves: TreeNode[]) => void): Built {
  const leaves: TreeNode[] = [];
  const where = new Map<string, number[]>();
  for (const u of users) {
    const sub = subKey(u.nonce, SNAPSHOT, u.id);
    u.parts.forEach((sums, part) => {
      where.set(u.id, [...(where.get(u.id) ?? []), leaves.length]);
      leaves.push({ hash: leafHash(sub, part, sums), sums });
    });
  }
  tamper?.(leaves);
  const count = paddedLeafCount(leaves.length);
  const levels: TreeNode[][] = [];
  const tree = new StreamingTree(count, (level, index, node) => {
    (levels[level] ??= [])[index] = node;
  });
  leaves.forEach((l) => tree.push(l));
  const root = tree.finish(SNAPSHOT, CURRENCIES.length);
  const header: Header = {
    version: 'pol-v1',
    snapshotId: SNAPSHOT,
    takenAt: '2026-11-25T00:00:00.000Z',
    chainId: 1,
    blockNumber: 1234,
    blockHash: toHex(randomBytes(32)),
    currencies: CURRENCIES,
    decimals: [6, 18],
    root: toHex(root.hash),
    sums: root.sums.map(String),
    leafCount: count,
  };
  return { header, levels, where };
}

function proofOf(b: Built, u: User, signer: Wallet = operator, leafIndices = b.where.get(u.id)!): Proof {
  return {
    header: b.header,
    signature: signer.signMessageSync(canonicalHeader(b.header)),
    userId: u.id,
    nonce: toHex(u.nonce),
    parts: leafIndices.map((leafIndex, part) => ({
      part,
      leafIndex,
      sums: b.levels[0]![leafIndex]!.sums.map(String),
      path: pathIndices(leafIndex, b.header.leafCount).map(({ level, index, side }) => ({
        hash: toHex(b.levels[level]![index]!.hash),
        sums: b.levels[level]![index]!.sums.map(String),
        side,
      })),
    })),
  };
}

const failed = (proof: unknown, expectedBalances?: bigint[]) =>
  verifyProof(proof, { signer: operator.address, ...(expectedBalances ? { expectedBalances } : {}) })
    .checks.filter((c) => !c.ok)
    .map((c) => c.name);

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

const alice = user([[700n, 1n], [300n, 2n]]);
const bob = user([[0n, 5n], [40n, 0n], [2n, 10n ** 18n]]);
const carol = user([[1n, 0n], [0n, 0n]]);
const honest = build([bob, alice, carol]);

describe('the verifier', () => {
  it('passes an honest proof and adds the parts up to the balances the test split', () => {
    for (const [u, total] of [[alice, [1000n, 3n]], [bob, [42n, 10n ** 18n + 5n]], [carol, [1n, 0n]]] as const) {
      const verdict = verifyProof(JSON.parse(JSON.stringify(proofOf(honest, u))), { signer: operator.address, expectedBalances: [...total] });
      expect(verdict.checks.filter((c) => !c.ok)).toEqual([]);
      expect(verdict.ok).toBe(true);
      expect(verdict.balances).toEqual(total.map(String));
    }
    // The header's sums are every user's vector added up, as the test computes them.
    expect(honest.header.sums).toEqual([String(1000n + 42n + 1n), String(3n + 10n ** 18n + 5n)]);
  });

  it('attack: a negative sum in a part or a sibling is refused', () => {
    const p = clone(proofOf(honest, alice));
    p.parts[0]!.sums[0] = '-5';
    expect(failed(p)).toContain('sums');
    const q = clone(proofOf(honest, alice));
    q.parts[1]!.path[1]!.sums[0] = '-1000';
    expect(failed(q)).toEqual(expect.arrayContaining(['sums', 'root']));
  });

  it('attack: a sum of 2^256, or siblings whose total would wrap past 2^256, is refused', () => {
    const p = clone(proofOf(honest, alice));
    p.parts[0]!.path[0]!.sums[1] = String(1n << 256n);
    expect(failed(p)).toContain('sums');
    // Each sum below 2^256, but a node of the two would reach it: wrapping would hide liabilities.
    const q = clone(proofOf(honest, alice));
    q.parts[0]!.path[0]!.sums[1] = String((1n << 256n) - 1n);
    expect(failed(q)).toEqual(['root']);
  });

  it('attack: a node whose sums are not its children\'s is caught by the user beneath it', () => {
    // The operator lowers the sums of the node above bob's first two parts and re-hashes upwards.
    const b = build([bob, alice, carol]);
    const lowered: TreeNode = { hash: b.levels[1]![0]!.hash, sums: [0n, 0n] };
    b.levels[1]![0] = lowered;
    let node = lowered;
    for (let level = 1, i = 0; level < b.levels.length - 1; level++, i >>= 1) {
      const sibling = b.levels[level]![i ^ 1]!;
      node = i & 1 ? parentNode(sibling, node) : parentNode(node, sibling);
      b.levels[level + 1]![i >> 1] = node;
    }
    b.header = { ...b.header, root: toHex(node.hash), sums: node.sums.map(String) };
    // The published total lost bob's first two parts...
    expect(b.header.sums).toEqual([String(1043n - 40n), String(10n ** 18n + 8n - 5n)]);
    // ...and bob, whose path runs through the lie, sees it; alice, elsewhere in the tree, cannot.
    expect(failed(proofOf(b, bob))).toEqual(['root']);
    expect(failed(proofOf(b, alice))).toEqual([]);
  });

  it('attack: a swapped or altered sibling is refused', () => {
    const side = clone(proofOf(honest, alice));
    side.parts[0]!.path[0]!.side = side.parts[0]!.path[0]!.side === 'left' ? 'right' : 'left';
    expect(failed(side)).toContain('path');
    const order = clone(proofOf(honest, alice));
    const steps = order.parts[1]!.path;
    [steps[0], steps[1]] = [steps[1]!, steps[0]!];
    expect(failed(order)).toContain('root');
    const hash = clone(proofOf(honest, alice));
    hash.parts[0]!.path[1]!.hash = toHex(randomBytes(32));
    expect(failed(hash)).toEqual(['root']);
    const sums = clone(proofOf(honest, alice));
    sums.parts[0]!.path[1]!.sums[0] = String(BigInt(sums.parts[0]!.path[1]!.sums[0]!) + 1n);
    expect(failed(sums)).toEqual(['root']);
    const leaf = clone(proofOf(honest, alice));
    leaf.parts[0]!.sums[0] = '699';
    expect(failed(leaf)).toEqual(['root']);
  });

  it('attack: a header signed by another key, or altered after signing, is refused', () => {
    expect(failed(proofOf(honest, alice, stranger))).toEqual(['signature']);
    const p = clone(proofOf(honest, alice));
    p.header.blockNumber += 1;
    expect(failed(p)).toEqual(['signature']);
    const extra = clone(proofOf(honest, alice)) as unknown as { header: Record<string, unknown> };
    extra.header.note = 'x';
    expect(failed(extra)).toEqual(['format']);
  });

  it('attack: a user left out of the tree fails their check, whatever path they are shown', () => {
    const dave = user([[9n, 9n], [1n, 1n]]);
    const without = build([bob, alice, carol]);
    // The operator answers dave with the leaves of someone else: his leaves recompute differently.
    const p = proofOf(without, dave, operator, without.where.get(alice.id)!);
    p.parts.forEach((part, i) => (part.sums = dave.parts[i]!.map(String)));
    expect(failed(p)).toEqual(['root']);
    // Keeping alice's sums does not help: the leaf is keyed by dave's own nonce and id.
    expect(failed(proofOf(without, dave, operator, without.where.get(alice.id)!))).toEqual(['root']);
  });

  it('attack: a part given twice, or a single part, is refused', () => {
    const twice = clone(proofOf(honest, alice));
    twice.parts[1] = { ...twice.parts[0]!, part: 1 };
    expect(failed(twice)).toEqual(expect.arrayContaining(['parts']));
    const one = clone(proofOf(honest, alice));
    one.parts = one.parts.slice(0, 1);
    expect(failed(one)).toEqual(['parts']);
  });

  it('says when the parts do not add up to the balances the user expects', () => {
    expect(failed(proofOf(honest, alice), [1000n, 4n])).toEqual(['balances']);
  });

  it('never throws on garbage', () => {
    for (const junk of [null, 1, 'x', [], {}, { header: {} }, { ...proofOf(honest, alice), parts: [{}] }, { ...proofOf(honest, alice), nonce: '0x12' }]) {
      const v = verifyProof(junk, { signer: operator.address });
      expect(v.ok).toBe(false);
      expect(v.checks[0]).toMatchObject({ name: 'format', ok: false });
    }
  });
});
