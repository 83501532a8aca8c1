// The bytes of format v1, pinned against node:crypto written out from the published text, so the
// production encoders (on @noble/hashes) cannot drift from docs/proof-of-solvency.md.
import { createHash, createHmac } from 'node:crypto';
import {
  StreamingTree,
  canonicalHeader,
  leafHash,
  paddingLeafHash,
  parentNode,
  pathIndices,
  subKey,
  toHex,
  u256be,
  u32be,
  u64be,
  uuidBytes,
} from '../src';

const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const be = (v: bigint, bytes: number) => Buffer.from(v.toString(16).padStart(bytes * 2, '0'), 'hex');

describe('format v1', () => {
  it('writes integers big-endian at fixed width and refuses what does not fit', () => {
    expect(hex(u32be(1))).toBe('00000001');
    expect(hex(u64be(258))).toBe('0000000000000102');
    expect(hex(u256be((1n << 256n) - 1n))).toBe('f'.repeat(64));
    expect(() => u32be(2 ** 32)).toThrow();
    expect(() => u256be(1n << 256n)).toThrow();
    expect(() => u256be(-1n)).toThrow();
  });

  it('computes sub, leaf, padding leaf and node as the document writes them', () => {
    const nonce = Buffer.alloc(32, 0xab);
    const userId = '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f1';
    const idBytes = Buffer.from(userId.replace(/-/g, ''), 'hex');
    expect(hex(uuidBytes(userId))).toBe(idBytes.toString('hex'));

    const sub = sha(Buffer.from('pol-v1/sub'), nonce, be(9n, 8), idBytes);
    expect(hex(subKey(nonce, 9, userId))).toBe(sub.toString('hex'));

    const sums = [123n, 10n ** 30n];
    const leaf = createHmac('sha256', sub).update(Buffer.concat([Buffer.from('pol-v1/leaf'), be(1n, 4), be(sums[0]!, 32), be(sums[1]!, 32)])).digest();
    expect(hex(leafHash(sub, 1, sums))).toBe(leaf.toString('hex'));

    const pad = sha(Buffer.from('pol-v1/pad'), be(9n, 8), be(3n, 8));
    expect(hex(paddingLeafHash(9, 3))).toBe(pad.toString('hex'));

    const node = sha(Buffer.from('pol-v1/node'), leaf, be(123n, 32), be(10n ** 30n, 32), pad, be(0n, 32), be(0n, 32));
    const parent = parentNode({ hash: leaf, sums }, { hash: pad, sums: [0n, 0n] });
    expect(hex(parent.hash)).toBe(node.toString('hex'));
    expect(parent.sums).toEqual([123n, 10n ** 30n]);
  });

  it('attack: fields that would collide if concatenated loosely hash apart at fixed width', () => {
    const sub = Buffer.alloc(32, 1);
    // Loosely written, part 1 with sums 23,4 and part 12 with sums 3,4 are the same text...
    const loose = (part: number, s: number[]) => `pol-v1/leaf${part}${s.join('')}`;
    expect(loose(1, [23, 4])).toBe(loose(12, [3, 4]));
    // ...and so are sums (1, 23) and (12, 3) of one part: at fixed width neither pair collides.
    expect(loose(0, [1, 23])).toBe(loose(0, [12, 3]));
    expect(hex(leafHash(sub, 1, [23n, 4n]))).not.toBe(hex(leafHash(sub, 12, [3n, 4n])));
    expect(hex(leafHash(sub, 0, [1n, 23n]))).not.toBe(hex(leafHash(sub, 0, [12n, 3n])));
    // The snapshot id and leaf index of a padding leaf likewise: (1, 23) against (12, 3).
    expect(hex(paddingLeafHash(1, 23))).not.toBe(hex(paddingLeafHash(12, 3)));
  });

  it('writes the header as canonical JSON: these keys, this order, no spaces', () => {
    const text = canonicalHeader({
      leafCount: 4,
      version: 'pol-v1',
      snapshotId: 2,
      takenAt: '2026-11-25T00:00:00.000Z',
      chainId: 1,
      blockNumber: 99,
      blockHash: `0x${'1'.repeat(64)}`,
      currencies: ['USDT', 'ETH'],
      decimals: [6, 18],
      root: `0x${'2'.repeat(64)}`,
      sums: ['5', '0'],
    });
    expect(text).toBe(
      `{"version":"pol-v1","snapshotId":2,"takenAt":"2026-11-25T00:00:00.000Z","chainId":1,"blockNumber":99,"blockHash":"0x${'1'.repeat(64)}","currencies":["USDT","ETH"],"decimals":[6,18],"root":"0x${'2'.repeat(64)}","sums":["5","0"],"leafCount":4}`,
    );
  });

  it('folds a streamed tree to the root a whole-tree computation gives, and paths name the siblings', () => {
    const leaves = Array.from({ length: 5 }, (_, i) => ({ hash: sha(Buffer.from([i])), sums: [BigInt(i)] }));
    const seen: string[] = [];
    const tree = new StreamingTree(8, (level, index) => seen.push(`${level}:${index}`));
    leaves.forEach((l) => tree.push(l));
    const root = tree.finish(4, 1);
    // Whole-tree fold with node:crypto, level by level.
    let level = [...leaves, ...[5, 6, 7].map((i) => ({ hash: sha(Buffer.from('pol-v1/pad'), be(4n, 8), be(BigInt(i), 8)), sums: [0n] }))];
    while (level.length > 1) {
      const next = [];
      for (let i = 0; i < level.length; i += 2) {
        const [l, r] = [level[i]!, level[i + 1]!];
        next.push({ hash: sha(Buffer.from('pol-v1/node'), Buffer.from(l.hash), be(l.sums[0]!, 32), Buffer.from(r.hash), be(r.sums[0]!, 32)), sums: [l.sums[0]! + r.sums[0]!] });
      }
      level = next;
    }
    expect(toHex(root.hash)).toBe(toHex(level[0]!.hash));
    expect(root.sums).toEqual([10n]);
    expect(seen).toHaveLength(15);
    expect(pathIndices(5, 8)).toEqual([
      { level: 0, index: 4, side: 'left' },
      { level: 1, index: 3, side: 'right' },
      { level: 2, index: 0, side: 'left' },
    ]);
  });
});
