// The server's side of the tree: format v1 byte for byte as @app/solvency writes it, but on
// node:crypto, whose native SHA-256 is several times the speed of the JavaScript the browser checks
// with (api/test/solvency-blocks.test.ts holds the two to the same bytes). And the stored layout: the
// nodes of every fourth level in blocks of sixteen, so a snapshot writes a handful of rows per
// thousand leaves and a proof recomputes the three levels between from the block below them.
import { hash, randomBytes } from 'node:crypto';
import { FormatError, SUM_LIMIT } from '@app/solvency';

const TAG_SUB = Buffer.from('pol-v1/sub');
const TAG_LEAF = Buffer.from('pol-v1/leaf');
const TAG_PAD = Buffer.from('pol-v1/pad');
const TAG_NODE = Buffer.from('pol-v1/node');

/** Levels between stored ones: a block of 2^BLOCK_LEVELS nodes is the floor of a subtree that high. */
export const BLOCK_LEVELS = 4;
export const BLOCK = 1 << BLOCK_LEVELS;

/**
 * A node as a proof reads it: its hash in hex, and its sums as u256be bytes, as its parent's hash
 * reads them. Sums add up byte by byte and become numbers only where they are stored or shown
 * (`sumsOf`). The snapshot's build keeps no such objects: its nodes are bytes (`BlockTree`).
 */
export type Node = { hash: string; encoded: Buffer };

/** What is hashed is written here first: hashing is synchronous, so one buffer serves every call. */
let scratch = Buffer.allocUnsafe(1024);
const room = (n: number) => (scratch.length >= n ? scratch : (scratch = Buffer.allocUnsafe(n)));

function writeU64(out: Buffer, v: number, at: number): void {
  if (!Number.isSafeInteger(v) || v < 0) throw new FormatError(`u64 out of range: ${v}`);
  out.writeUInt32BE(Math.floor(v / 0x1_0000_0000), at);
  out.writeUInt32BE(v >>> 0, at + 4);
}

/**
 * One-shot SHA-256 (no hash object per call) of `data`, written at `at` of `out`. The digest comes
 * as a one-byte string: a buffer per digest is memory outside the heap for each of millions of
 * nodes, which costs the collector more than the hashing, and a byte string is copied back as is,
 * with no hex to parse.
 */
const digestInto = (data: Buffer, out: Buffer, at: number): void => void out.write(hash('sha256', data, 'binary'), at, 32, 'latin1');

const LIMB = (1n << 64n) - 1n;

/** u256be(v) at `at`, as four 64-bit words: no hex text per amount. */
export function writeU256(out: Buffer, v: bigint, at: number): void {
  if (v < 0n || v >= SUM_LIMIT) throw new FormatError(`u256 out of range: ${v}`);
  out.writeBigUInt64BE(v & LIMB, at + 24);
  if (v <= LIMB) {
    out.fill(0, at, at + 24);
    return;
  }
  out.writeBigUInt64BE((v >> 64n) & LIMB, at + 16);
  out.writeBigUInt64BE((v >> 128n) & LIMB, at + 8);
  out.writeBigUInt64BE(v >> 192n, at);
}

/** u256be(v_1) ‖ … ‖ u256be(v_N) */
export function encodeSums(sums: readonly bigint[]): Buffer {
  const out = Buffer.allocUnsafe(32 * sums.length);
  sums.forEach((v, i) => writeU256(out, v, i * 32));
  return out;
}

/** A node's sums, back from their u256be bytes. */
export function sumsOf(node: Node): bigint[] {
  return Array.from({ length: node.encoded.length / 32 }, (_, i) => BigInt(`0x${node.encoded.toString('hex', i * 32, i * 32 + 32)}`));
}

/**
 * The sums at `a` and at `b` in `from` added pairwise into `out` at `at` (u256be each, byte by byte
 * from the last); a sum reaching 2^256 is refused.
 */
function addSumsInto(from: Buffer, a: number, b: number, width: number, out: Buffer, at: number): void {
  for (let c = 32 * width; c > 0; c -= 32) {
    let carry = 0;
    for (let i = c - 1; i >= c - 32; i--) {
      const s = from[a + i]! + from[b + i]! + carry;
      out[at + i] = s & 0xff;
      carry = s >> 8;
    }
    if (carry) throw new FormatError('a node sum reaches 2^256');
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID's 16 bytes at `at` (userIdBytes), written as hex: no array per user. */
export function writeUuid(out: Buffer, uuid: string, at: number): void {
  if (!UUID.test(uuid)) throw new FormatError(`not a UUID: ${uuid}`);
  out.write(uuid.slice(0, 8), at, 4, 'hex');
  out.write(uuid.slice(9, 13), at + 4, 2, 'hex');
  out.write(uuid.slice(14, 18), at + 6, 2, 'hex');
  out.write(uuid.slice(19, 23), at + 8, 2, 'hex');
  out.write(uuid.slice(24), at + 10, 6, 'hex');
}

/** sub = SHA256("pol-v1/sub" ‖ nonce ‖ u64be(snapshotId) ‖ userIdBytes) */
export function subKey(nonce: Buffer, snapshotId: number, userId: string): Buffer {
  const user = Buffer.allocUnsafe(16);
  writeUuid(user, userId, 0);
  return subKeyOf(nonce, snapshotId, user);
}

/** The same from the user id's 16 bytes, at `from` in `user` (the deal's record, where they already sit). */
export function subKeyOf(nonce: Buffer, snapshotId: number, user: Buffer, from = 0): Buffer {
  if (nonce.length !== 32) throw new FormatError('the nonce is 32 bytes');
  const sub = Buffer.allocUnsafe(32);
  subKeyInto(nonce, 0, snapshotId, user, from, sub, 0);
  return sub;
}

/** The sub of the nonce at `nonceAt` and the user id bytes at `from`, written at `at` of `out`. */
export function subKeyInto(nonces: Buffer, nonceAt: number, snapshotId: number, user: Buffer, from: number, out: Buffer, at: number): void {
  const data = room(TAG_SUB.length + 56);
  user.copy(data, TAG_SUB.length + 40, from, from + 16);
  TAG_SUB.copy(data, 0);
  nonces.copy(data, TAG_SUB.length, nonceAt, nonceAt + 32);
  writeU64(data, snapshotId, TAG_SUB.length + 32);
  digestInto(data.subarray(0, TAG_SUB.length + 56), out, at);
}

/**
 * The leaf's two messages, kept per width: HMAC's padded keys (RFC 2104: a key of 32 bytes is
 * zero-padded to the block of 64) have their last 32 bytes fixed, and the inner message its tag, so
 * a leaf writes only its sub, part and sums.
 */
type LeafMessages = { inner: Buffer; outer: Buffer };
const leafMessages = new Map<number, LeafMessages>();

function messagesFor(width: number): LeafMessages {
  let m = leafMessages.get(width);
  if (!m) {
    const inner = Buffer.alloc(64 + TAG_LEAF.length + 4 + 32 * width, 0x36);
    TAG_LEAF.copy(inner, 64);
    leafMessages.set(width, (m = { inner, outer: Buffer.alloc(96, 0x5c) }));
  }
  return m;
}

/**
 * HMAC-SHA256(key = sub, "pol-v1/leaf" ‖ u32be(part) ‖ u256be(v_1) ‖ … ‖ u256be(v_N)), from the
 * sub at `subAt` and the sums at `sumsAt` of `src`: the leaf's hash and sums written at `at` of `out`.
 */
function leafInto(src: Buffer, subAt: number, part: number, sumsAt: number, width: number, out: Buffer, at: number): void {
  const { inner, outer } = messagesFor(width);
  for (let i = 0; i < 32; i++) {
    const k = src[subAt + i]!;
    inner[i] = k ^ 0x36;
    outer[i] = k ^ 0x5c;
  }
  inner.writeUInt32BE(part, 64 + TAG_LEAF.length);
  src.copy(inner, 64 + TAG_LEAF.length + 4, sumsAt, sumsAt + 32 * width);
  digestInto(inner, outer, 64);
  digestInto(outer, out, at);
  src.copy(out, at + 32, sumsAt, sumsAt + 32 * width);
}

/** SHA256("pol-v1/pad" ‖ u64be(snapshotId) ‖ u64be(leafIndex)): its hash written at `at` of `out`, its sums zero. */
function paddingInto(snapshotId: number, leafIndex: number, width: number, out: Buffer, at: number): void {
  const data = room(TAG_PAD.length + 16);
  TAG_PAD.copy(data, 0);
  writeU64(data, snapshotId, TAG_PAD.length);
  writeU64(data, leafIndex, TAG_PAD.length + 8);
  digestInto(data.subarray(0, TAG_PAD.length + 16), out, at);
  out.fill(0, at + 32, at + 32 + 32 * width);
}

/**
 * A pair of nodes as their parent hashes them: "pol-v1/node" ‖ L.hash ‖ u256be(L.sums…) ‖ R.hash ‖
 * u256be(R.sums…), which is the tag and then the two nodes' bytes as the tree keeps them. The
 * parent's hash and sums go to `at` of `out`.
 */
const PAIR = TAG_NODE.length;
const pairBuffer = (width: number) => {
  const pair = Buffer.alloc(PAIR + 2 * nodeBytes(width));
  TAG_NODE.copy(pair, 0);
  return pair;
};

function foldPair(pair: Buffer, width: number, out: Buffer, at: number): void {
  const size = nodeBytes(width);
  addSumsInto(pair, PAIR + 32, PAIR + size + 32, width, out, at + 32);
  digestInto(pair, out, at);
}

/** A node's bytes as the tree keeps them: its hash, then its sums. */
const nodeBytes = (width: number) => 32 + 32 * width;

/** A node's bytes as a Node. */
const nodeAt = (bytes: Buffer, at: number, width: number): Node => ({
  hash: bytes.toString('hex', at, at + 32),
  encoded: Buffer.from(bytes.subarray(at + 32, at + 32 + 32 * width)),
});

/** A Node's bytes written at `at` of `out`. */
function writeNode(node: Node, out: Buffer, at: number): void {
  out.write(node.hash, at, 32, 'hex');
  node.encoded.copy(out, at + 32);
}

/** HMAC-SHA256 leaf of a sub (32 bytes), part and sums. */
export function leafNode(sub: Buffer, part: number, sums: readonly bigint[]): Node {
  if (sub.length !== 32) throw new FormatError('a sub is 32 bytes');
  const src = Buffer.concat([sub, encodeSums(sums)]);
  const out = Buffer.allocUnsafe(nodeBytes(sums.length));
  leafInto(src, 0, part, 32, sums.length, out, 0);
  return nodeAt(out, 0, sums.length);
}

export function paddingNode(snapshotId: number, leafIndex: number, width: number): Node {
  const out = Buffer.allocUnsafe(nodeBytes(width));
  paddingInto(snapshotId, leafIndex, width, out, 0);
  return nodeAt(out, 0, width);
}

/** SHA256("pol-v1/node" ‖ L.hash ‖ u256be(L.sums…) ‖ R.hash ‖ u256be(R.sums…)); a sum reaching 2^256 is refused. */
export function parentOf(left: Node, right: Node): Node {
  if (left.encoded.length !== right.encoded.length) throw new FormatError('children with different numbers of currencies');
  const width = left.encoded.length / 32;
  const pair = pairBuffer(width);
  writeNode(left, pair, PAIR);
  writeNode(right, pair, PAIR + nodeBytes(width));
  const out = Buffer.allocUnsafe(nodeBytes(width));
  foldPair(pair, width, out, 0);
  return nodeAt(out, 0, width);
}

/** `count` nodes folded up `levels` times (or to one): every level, the block's first included. */
export function foldBlock(nodes: Node[], levels = BLOCK_LEVELS): Node[][] {
  const out = [nodes];
  for (let l = 0; l < levels && out[l]!.length > 1; l++) {
    const below = out[l]!;
    out.push(Array.from({ length: below.length / 2 }, (_, i) => parentOf(below[2 * i]!, below[2 * i + 1]!)));
  }
  return out;
}

/** Nodes at `level` in a tree of `leafCount` leaves, and how many of them one block holds. */
export const blockSize = (leafCount: number, level: number) => Math.min(BLOCK, Math.max(1, leafCount / 2 ** level));

/**
 * A block handed over: `count` hashes, then the same nodes' sums, as `solvency_blocks` stores them.
 * `bytes` is the tree's own buffer, reused for the next block: the sink copies what it keeps.
 */
export type BlockSink = (level: number, block: number, count: number, bytes: Buffer) => void;

/** A block's nodes, from its bytes as the sink receives them. */
export function blockNodes(count: number, bytes: Buffer, width: number): Node[] {
  return Array.from({ length: count }, (_, i) => ({
    hash: bytes.toString('hex', 32 * i, 32 * i + 32),
    encoded: Buffer.from(bytes.subarray(32 * count + 32 * width * i, 32 * count + 32 * width * (i + 1))),
  }));
}

/**
 * Folds leaves pushed in order and hands over the blocks to store: those of every BLOCK_LEVELS-th
 * level below the root. A block of the leaf level that holds padding only is not handed over: no
 * user's proof starts in it, and each of its leaves is computable from (snapshotId, leafIndex).
 *
 * Memory is flat and nothing is allocated per node: each level keeps one pair of nodes as bytes,
 * behind the parent's tag, so a parent hashes its pair where it lies; each stored level gathers its
 * block in a buffer of its own.
 */
export class BlockTree {
  private readonly height: number;
  private readonly size: number;
  /** Per level: the tag, then the pair's left and right node. */
  private readonly pairs: Buffer[] = [];
  private readonly counts: number[] = [];
  /** Per stored level: the block's hashes, then their sums (how many it holds follows from the level's count). */
  private readonly blocks: Buffer[] = [];
  private leaves = 0;

  constructor(
    private readonly leafCount: number,
    private readonly realLeaves: number,
    private readonly width: number,
    private readonly emit: BlockSink,
  ) {
    this.height = Math.log2(leafCount);
    if (!Number.isInteger(this.height) || realLeaves > leafCount) throw new FormatError('the leaf count is a power of two that holds every part');
    this.size = nodeBytes(width);
    for (let level = 0; level <= this.height; level++) {
      this.pairs.push(pairBuffer(width));
      this.counts.push(0);
      if (level % BLOCK_LEVELS === 0 && level < this.height) {
        this.blocks[level] = Buffer.alloc(blockSize(leafCount, level) * this.size);
      }
    }
  }

  /** Where the next node of `level` goes: its pair's left or right. */
  private slot(level: number): number {
    return PAIR + (this.counts[level]! & 1) * this.size;
  }

  private refuseOverflow(): void {
    if (this.leaves >= this.leafCount) throw new FormatError('more leaves than the tree holds');
  }

  /** A leaf from the sub at `subAt` and the sums at `sumsAt` of `src`. */
  pushLeaf(src: Buffer, subAt: number, part: number, sumsAt: number): void {
    this.refuseOverflow();
    leafInto(src, subAt, part, sumsAt, this.width, this.pairs[0]!, this.slot(0));
    this.leaves++;
    this.placed(0);
  }

  /** A leaf as a Node. */
  push(leaf: Node): void {
    this.refuseOverflow();
    if (leaf.encoded.length !== 32 * this.width) throw new FormatError('a leaf of another number of currencies');
    writeNode(leaf, this.pairs[0]!, this.slot(0));
    this.leaves++;
    this.placed(0);
  }

  /** The next padding leaf. */
  pushPadding(snapshotId: number): void {
    this.refuseOverflow();
    paddingInto(snapshotId, this.leaves, this.width, this.pairs[0]!, this.slot(0));
    this.leaves++;
    this.placed(0);
  }

  /** How many leaves have been pushed, which is the index of the next. */
  get pushed(): number {
    return this.leaves;
  }

  /** Pads up to the leaf count and answers the root. */
  finish(snapshotId: number, onPadding?: () => void): Node {
    while (this.leaves < this.leafCount) {
      this.pushPadding(snapshotId);
      onPadding?.();
    }
    if (this.counts[this.height] !== 1) throw new FormatError('the tree did not fold to one root');
    return nodeAt(this.pairs[this.height]!, PAIR, this.width);
  }

  /** The node just written at its level's slot: kept in its block if the level is stored, folded with its left if it is a right. */
  private placed(level: number): void {
    const pair = this.pairs[level]!;
    const index = this.counts[level]!;
    const at = this.slot(level);
    this.counts[level] = index + 1;
    const block = this.blocks[level];
    if (block) {
      const n = block.length / this.size;
      const i = index % n;
      pair.copy(block, 32 * i, at, at + 32);
      pair.copy(block, 32 * n + 32 * this.width * i, at + 32, at + this.size);
      if (i + 1 === n) {
        const first = index + 1 - n;
        if (level > 0 || first < this.realLeaves) this.emit(level, first / n, n, block);
      }
    }
    if (index & 1) {
      foldPair(pair, this.width, this.pairs[level + 1]!, this.slot(level + 1));
      this.placed(level + 1);
    }
  }
}

/** Crypto randomness drawn a buffer at a time, so a million draws are a few calls to the RNG. */
export class Randomness {
  private pool = Buffer.alloc(0);
  private at = 0;

  bytes(n: number): Buffer {
    const at = this.take(n);
    return this.pool.subarray(at, at + n);
  }

  /** Where `n` fresh bytes start in the pool: read in place, with no view made per draw. */
  private take(n: number): number {
    if (this.at + n > this.pool.length) {
      this.pool = randomBytes(Math.max(1 << 16, n));
      this.at = 0;
    }
    this.at += n;
    return this.at - n;
  }

  /** Uniform in [0, bound) for bound ≤ 2^32, by rejection: no modulo bias. */
  below(bound: number): number {
    if (bound <= 1) return 0;
    const limit = Math.floor(0x1_0000_0000 / bound) * bound;
    for (;;) {
      // Taken first: a draw may replace the pool.
      const at = this.take(4);
      const v = this.pool.readUInt32BE(at);
      if (v < limit) return v % bound;
    }
  }

  /** Uniform in [0, bound) for any bigint bound (64 spare bits make the modulo bias negligible). */
  belowBig(bound: bigint): bigint {
    if (bound <= 1n) return 0n;
    // The common case, amounts under 2^64: 128 random bits as two words, no hex text.
    if (bound <= 1n << 64n) {
      const at = this.take(16);
      return ((this.pool.readBigUInt64BE(at) << 64n) | this.pool.readBigUInt64BE(at + 8)) % bound;
    }
    const n = Math.ceil(bound.toString(16).length / 2) + 8;
    return BigInt(`0x${this.bytes(n).toString('hex')}`) % bound;
  }

  /** Fisher–Yates: a uniform order of 0 … n−1. */
  permutation(n: number): Uint32Array {
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    for (let i = n - 1; i > 0; i--) {
      const j = this.below(i + 1);
      const t = order[i]!;
      order[i] = order[j]!;
      order[j] = t;
    }
    return order;
  }
}
