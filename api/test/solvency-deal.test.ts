// The deal's per-user work as the tree's thread does it (api/src/solvency/deal.ts): every part's
// record in its bucket's run, the parts of each user adding up to what they are owed, the sub the
// format's, and nothing a page did not hold. Checked with @app/solvency's own code, not the server's.
import { randomBytes, randomUUID } from 'node:crypto';
import { subKey as nobleSubKey } from '@app/solvency';
import { Dealer, RECORD, recordSize, type OwedPage } from '../src/solvency/deal';

const width = 2;
const size = recordSize(width);
const u256 = (b: Buffer, at: number) => BigInt(`0x${b.toString('hex', at, at + 32)}`);
const uuidOf = (b: Buffer, at: number) => {
  const h = b.toString('hex', at, at + 16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

function page(n: number): OwedPage & { owed: Map<string, bigint[]> } {
  const owed = new Map<string, bigint[]>();
  const out: OwedPage = { users: [], amounts: [], nonces: [] };
  for (let i = 0; i < n; i++) {
    const user = randomUUID();
    // One amount above 2^64 (the split's other branch), one zero, the rest ordinary.
    const v = [i === 0 ? 3n ** 50n : BigInt(`0x${randomBytes(7).toString('hex')}`), i === 1 ? 0n : BigInt(i)];
    owed.set(user, v);
    out.users.push(user);
    out.amounts.push(...v.map(String));
    out.nonces.push(randomBytes(32).toString('hex'));
  }
  return { ...out, owed };
}

describe('the deal on the tree\'s thread', () => {
  it('records every part once, buckets in order; a user\'s parts add up to what they are owed, keyed by the format\'s sub', () => {
    const snapshotId = 7;
    const buckets = 5;
    const dealer = new Dealer({ snapshotId, buckets, width, users: 300 });
    const seen = new Map<string, { parts: Set<number>; sums: bigint[] }>();
    const pages = [page(120), page(180)];
    let records = 0;
    for (const p of pages) {
      const dealt = dealer.deal(p);
      expect(dealt.buckets).toEqual([...dealt.buckets].sort((a, b) => a - b));
      expect(dealt.buckets.every((b) => b >= 0 && b < buckets)).toBe(true);
      const bytes = Buffer.from(dealt.records);
      expect(bytes.length).toBe(dealt.lengths.reduce((s, n) => s + n, 0) * size);
      records += bytes.length / size;
      const nonceOf = new Map(p.users.map((u, i) => [u, Buffer.from(p.nonces[i]!, 'hex')]));
      for (let at = 0; at < bytes.length; at += size) {
        const user = uuidOf(bytes, at + RECORD.user);
        expect(p.owed.has(user)).toBe(true);
        const sub = bytes.subarray(at + RECORD.sub, at + RECORD.sums);
        expect(sub.toString('hex')).toBe(Buffer.from(nobleSubKey(nonceOf.get(user)!, snapshotId, user)).toString('hex'));
        const entry = seen.get(user) ?? { parts: new Set<number>(), sums: [0n, 0n] };
        entry.parts.add(bytes[at + RECORD.part]!);
        for (let c = 0; c < width; c++) entry.sums[c]! += u256(bytes, at + RECORD.sums + 32 * c);
        seen.set(user, entry);
      }
    }
    const owed = new Map(pages.flatMap((p) => [...p.owed]));
    expect(seen.size).toBe(owed.size);
    for (const [user, { parts, sums }] of seen) {
      expect(parts.size === 2 || parts.size === 3).toBe(true);
      expect([...parts].sort()).toEqual([...Array(parts.size).keys()]);
      expect(sums).toEqual(owed.get(user));
    }
    const totals = dealer.totals();
    expect(totals.users).toBe(300);
    expect(totals.parts).toBe(records);
    expect(totals.sums).toEqual([0, 1].map((c) => String([...owed.values()].reduce((s, v) => s + v[c]!, 0n))));
  });

  it('refuses a page whose nonces or amounts are cut short, and a negative amount', () => {
    const dealer = new Dealer({ snapshotId: 1, buckets: 2, width, users: 10 });
    const p = page(3);
    expect(() => dealer.deal({ ...p, nonces: p.nonces.slice(1) })).toThrow('cut short');
    expect(() => dealer.deal({ ...p, nonces: p.nonces.map((n) => n.slice(2)) })).toThrow('32 bytes');
    expect(() => dealer.deal({ ...p, amounts: p.amounts.slice(1) })).toThrow('cut short');
    expect(() => dealer.deal({ ...p, amounts: p.amounts.map((a, i) => (i === 3 ? '-1' : a)) })).toThrow('negative');
  });
});
