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
 * A node: its hash in hex, and its sums as u256be bytes, as its parent's hash reads them. Sums add
 * up byte by byte and become numbers only where they are stored or shown (`sumsOf`). The hash is
 * a string because a buffer per digest is an allocation outside the heap for each of millions of
 * nodes, which the collector then spends more time on than the hashing takes.
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

/** One-shot SHA-256: no hash object per call. */
const sha256 = (data: Buffer): Buffer => hash('sha256', data, 'buffer');
const sha256Hex = (data: Buffer): string => hash('sha256', data, 'hex');

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

/** Each pair of u256be sums added, byte by byte from the last; a sum reaching 2^256 is refused. */
function addSums(a: Buffer, b: Buffer): Buffer {
  if (a.length !== b.length) throw new FormatError('children with different numbers of currencies');
  const out = Buffer.allocUnsafe(a.length);
  for (let end = a.length; end > 0; end -= 32) {
    let carry = 0;
    for (let i = end - 1; i >= end - 32; i--) {
      const s = a[i]! + b[i]! + carry;
      out[i] = s & 0xff;
      carry = s >> 8;
    }
    if (carry) throw new FormatError('a node sum reaches 2^256');
  }
  return out;
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
  const data = room(TAG_SUB.length + 56);
  user.copy(data, TAG_SUB.length + 40, from, from + 16);
  TAG_SUB.copy(data, 0);
  nonce.copy(data, TAG_SUB.length);
  writeU64(data, snapshotId, TAG_SUB.length + 32);
  return sha256(data.subarray(0, TAG_SUB.length + 56));
}

/** A sub as HMAC's two padded keys (RFC 2104: a key of 32 bytes is zero-padded to the block of 64), made once per user. */
export type LeafKey = { inner: Buffer; outer: Buffer };

export function leafKey(sub: Buffer): LeafKey {
  if (sub.length !== 32) throw new FormatError('a sub is 32 bytes');
  const inner = Buffer.alloc(64, 0x36);
  const outer = Buffer.alloc(64, 0x5c);
  for (let i = 0; i < 32; i++) {
    inner[i]! ^= sub[i]!;
    outer[i]! ^= sub[i]!;
  }
  return { inner, outer };
}

/** HMAC-SHA256(key = sub, "pol-v1/leaf" ‖ u32be(part) ‖ u256be(v_1) ‖ … ‖ u256be(v_N)) */
export function leafNode(key: LeafKey, part: number, sums: readonly bigint[]): Node {
  return leafOf(key.inner, key.outer, part, encodeSums(sums));
}

/** The same leaf from the sub itself, its padded keys written straight into the message: no allocation but the sums'. */
export function leafOfSub(sub: Buffer, part: number, encoded: Buffer): Node {
  if (sub.length !== 32) throw new FormatError('a sub is 32 bytes');
  return leafOf(sub, null, part, encoded);
}

/** `inner`/`outer`: the padded keys, or (with `outer` null) the 32-byte sub to pad here. */
function leafOf(inner: Buffer, outer: Buffer | null, part: number, encoded: Buffer): Node {
  const length = 64 + TAG_LEAF.length + 4 + encoded.length;
  const message = room(length);
  if (outer) inner.copy(message, 0);
  else for (let i = 0; i < 64; i++) message[i] = (i < 32 ? inner[i]! : 0) ^ 0x36;
  TAG_LEAF.copy(message, 64);
  message.writeUInt32BE(part, 64 + TAG_LEAF.length);
  encoded.copy(message, 64 + TAG_LEAF.length + 4);
  const hashed = sha256Hex(message.subarray(0, length));
  if (outer) outer.copy(message, 0);
  else for (let i = 0; i < 64; i++) message[i] = (i < 32 ? inner[i]! : 0) ^ 0x5c;
  message.write(hashed, 64, 32, 'hex');
  return { hash: sha256Hex(message.subarray(0, 96)), encoded };
}

/** SHA256("pol-v1/pad" ‖ u64be(snapshotId) ‖ u64be(leafIndex)); its sums are all zero. */
const zeros = new Map<number, Buffer>();

export function paddingNode(snapshotId: number, leafIndex: number, width: number): Node {
  let encoded = zeros.get(width);
  if (!encoded) zeros.set(width, (encoded = Buffer.alloc(32 * width)));
  const data = room(TAG_PAD.length + 16);
  TAG_PAD.copy(data, 0);
  writeU64(data, snapshotId, TAG_PAD.length);
  writeU64(data, leafIndex, TAG_PAD.length + 8);
  return { hash: sha256Hex(data.subarray(0, TAG_PAD.length + 16)), encoded };
}

/** SHA256("pol-v1/node" ‖ L.hash ‖ u256be(L.sums…) ‖ R.hash ‖ u256be(R.sums…)); a sum reaching 2^256 is refused. */
export function parentOf(left: Node, right: Node): Node {
  const encoded = addSums(left.encoded, right.encoded);
  const half = 32 + encoded.length;
  const length = TAG_NODE.length + 2 * half;
  const data = room(length);
  TAG_NODE.copy(data, 0);
  data.write(left.hash, TAG_NODE.length, 32, 'hex');
  left.encoded.copy(data, TAG_NODE.length + 32);
  data.write(right.hash, TAG_NODE.length + half, 32, 'hex');
  right.encoded.copy(data, TAG_NODE.length + half + 32);
  return { hash: sha256Hex(data.subarray(0, length)), encoded };
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

export type BlockSink = (level: number, block: number, nodes: Node[]) => void;

/**
 * Folds leaves pushed in order (one node waiting per level, so memory is flat) and hands over the
 * blocks to store: those of every BLOCK_LEVELS-th level below the root. A block of the leaf level
 * that holds padding only is not handed over: no user's proof starts in it, and each of its leaves
 * is computable from (snapshotId, leafIndex).
 */
export class BlockTree {
  private readonly waiting: (Node | undefined)[] = [];
  private readonly counts: number[] = [];
  private readonly blocks: Node[][] = [];
  private readonly height: number;
  private leaves = 0;

  constructor(
    private readonly leafCount: number,
    private readonly realLeaves: number,
    private readonly emit: BlockSink,
  ) {
    this.height = Math.log2(leafCount);
    if (!Number.isInteger(this.height) || realLeaves > leafCount) throw new FormatError('the leaf count is a power of two that holds every part');
  }

  push(leaf: Node): void {
    if (this.leaves >= this.leafCount) throw new FormatError('more leaves than the tree holds');
    this.leaves++;
    this.place(0, leaf);
  }

  /** How many leaves have been pushed, which is the index of the next. */
  get pushed(): number {
    return this.leaves;
  }

  /** Pads up to the leaf count and answers the root. */
  finish(snapshotId: number, width: number, onPadding?: () => void): Node {
    while (this.leaves < this.leafCount) {
      this.push(paddingNode(snapshotId, this.leaves, width));
      onPadding?.();
    }
    const root = this.waiting[this.height];
    if (!root) throw new FormatError('the tree did not fold to one root');
    return root;
  }

  private place(level: number, node: Node): void {
    const index = this.counts[level] ?? 0;
    this.counts[level] = index + 1;
    if (level % BLOCK_LEVELS === 0 && level < this.height) {
      const block = (this.blocks[level] ??= []);
      block.push(node);
      if (block.length === blockSize(this.leafCount, level)) {
        const first = index + 1 - block.length;
        if (level > 0 || first < this.realLeaves) this.emit(level, first / block.length, block);
        this.blocks[level] = [];
      }
    }
    const left = this.waiting[level];
    if (index % 2 === 1 && left) {
      this.waiting[level] = undefined;
      this.place(level + 1, parentOf(left, node));
    } else {
      this.waiting[level] = node;
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
