// The proof-of-solvency format v1, byte for byte as docs/proof-of-solvency.md publishes it. Pure:
// the server builds with these functions and the browser and the command-line verifier check with
// them, so the three can never disagree. @noble/hashes runs the same in node and in a browser.
import { sha256 } from '@noble/hashes/sha256';
import { hmac } from '@noble/hashes/hmac';

export const VERSION = 'pol-v1';
export const CHAIN_ID = 1;
/** Every sum is an unsigned 256-bit integer: below this. */
export const SUM_LIMIT = 1n << 256n;

const TAG_SUB = utf8('pol-v1/sub');
const TAG_LEAF = utf8('pol-v1/leaf');
const TAG_PAD = utf8('pol-v1/pad');
const TAG_NODE = utf8('pol-v1/node');

export class FormatError extends Error {
  override name = 'FormatError';
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function fixedWidth(value: bigint | number, bytes: number, name: string): Uint8Array {
  const v = BigInt(value);
  if (v < 0n || v >= 1n << BigInt(bytes * 8)) throw new FormatError(`${name} out of range: ${v}`);
  const out = new Uint8Array(bytes);
  let rest = v;
  for (let i = bytes - 1; i >= 0; i--) {
    out[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return out;
}

export const u32be = (v: bigint | number): Uint8Array => fixedWidth(v, 4, 'u32');
export const u64be = (v: bigint | number): Uint8Array => fixedWidth(v, 8, 'u64');
export const u256be = (v: bigint | number): Uint8Array => fixedWidth(v, 32, 'u256');

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function toHex(bytes: Uint8Array): string {
  let s = '0x';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

/** Bytes of a 0x-prefixed hex string of exactly `length` bytes. */
export function fromHex(hex: string, length: number): Uint8Array {
  if (!new RegExp(`^0x[0-9a-fA-F]{${length * 2}}$`).test(hex)) throw new FormatError(`not ${length} bytes of hex: ${hex}`);
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = parseInt(hex.slice(2 + i * 2, 4 + i * 2), 16);
  return out;
}

/** The 16 bytes of a UUID, in the order it is written. */
export function uuidBytes(uuid: string): Uint8Array {
  if (!/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(uuid)) {
    throw new FormatError(`not a UUID: ${uuid}`);
  }
  return fromHex(`0x${uuid.replace(/-/g, '')}`, 16);
}

/** A sum as the format allows it: a decimal string of an integer in [0, 2^256). */
export function parseSum(text: unknown): bigint {
  if (typeof text !== 'string' || !/^(0|[1-9][0-9]*)$/.test(text)) throw new FormatError(`not a non-negative decimal integer: ${String(text)}`);
  const v = BigInt(text);
  if (v >= SUM_LIMIT) throw new FormatError(`sum not below 2^256: ${text}`);
  return v;
}

/** sub = SHA256("pol-v1/sub" ‖ nonce ‖ u64be(snapshotId) ‖ userIdBytes) */
export function subKey(nonce: Uint8Array, snapshotId: number | bigint, userId: string): Uint8Array {
  if (nonce.length !== 32) throw new FormatError('the nonce is 32 bytes');
  return sha256(concat(TAG_SUB, nonce, u64be(snapshotId), uuidBytes(userId)));
}

/** HMAC-SHA256(key = sub, "pol-v1/leaf" ‖ u32be(part) ‖ u256be(v_1) ‖ … ‖ u256be(v_N)) */
export function leafHash(sub: Uint8Array, part: number, sums: readonly bigint[]): Uint8Array {
  return hmac(sha256, sub, concat(TAG_LEAF, u32be(part), ...sums.map(u256be)));
}

/** SHA256("pol-v1/pad" ‖ u64be(snapshotId) ‖ u64be(leafIndex)); its sums are all zero. */
export function paddingLeafHash(snapshotId: number | bigint, leafIndex: number | bigint): Uint8Array {
  return sha256(concat(TAG_PAD, u64be(snapshotId), u64be(leafIndex)));
}

export interface TreeNode {
  hash: Uint8Array;
  sums: bigint[];
}

/**
 * SHA256("pol-v1/node" ‖ L.hash ‖ u256be(L.sums…) ‖ R.hash ‖ u256be(R.sums…)). Both children's
 * sums go in, so a node cannot claim a total its children do not have (ePrint 2018/1139). A sum
 * that would reach 2^256 is refused, never wrapped.
 */
export function parentNode(left: TreeNode, right: TreeNode): TreeNode {
  if (left.sums.length !== right.sums.length) throw new FormatError('children with different numbers of currencies');
  if (left.hash.length !== 32 || right.hash.length !== 32) throw new FormatError('a node hash is 32 bytes');
  const sums = left.sums.map((l, i) => {
    const s = l + right.sums[i]!;
    if (s >= SUM_LIMIT) throw new FormatError('a node sum reaches 2^256');
    return s;
  });
  const hash = sha256(concat(TAG_NODE, left.hash, ...left.sums.map(u256be), right.hash, ...right.sums.map(u256be)));
  return { hash, sums };
}

export interface Header {
  version: string;
  snapshotId: number;
  takenAt: string;
  chainId: number;
  blockNumber: number;
  blockHash: string;
  currencies: string[];
  decimals: number[];
  root: string;
  sums: string[];
  leafCount: number;
}

/** The signed text: exactly these keys, in this order, no spaces. */
export function canonicalHeader(h: Header): string {
  return JSON.stringify({
    version: h.version,
    snapshotId: h.snapshotId,
    takenAt: h.takenAt,
    chainId: h.chainId,
    blockNumber: h.blockNumber,
    blockHash: h.blockHash,
    currencies: h.currencies,
    decimals: h.decimals,
    root: h.root,
    sums: h.sums,
    leafCount: h.leafCount,
  });
}

export type Side = 'left' | 'right';

export interface PathStep {
  hash: string;
  sums: string[];
  /** The side the sibling sits on. */
  side: Side;
}

export interface ProofPart {
  part: number;
  sums: string[];
  leafIndex: number;
  path: PathStep[];
}

export interface Proof {
  header: Header;
  signature: string;
  userId: string;
  nonce: string;
  parts: ProofPart[];
}

/** The smallest power of two that holds `count` leaves (at least 1). */
export function paddedLeafCount(count: number): number {
  let n = 1;
  while (n < count) n *= 2;
  return n;
}
