// The deal's per-user work, done on the tree's thread (tree-worker.ts) while the snapshot's thread
// reads the next page of liabilities: each user's sub, the split of their vector into parts, each
// part's record and the random bucket it is dealt into. Reading the buckets in order and each
// one's parts in a random order (the snapshot's `Deal.shuffled`) is a uniform shuffle of all parts.
import { FormatError, paddedLeafCount } from '@app/solvency';
import { Randomness, subKeyInto, writeU256, writeUuid } from './tree';

/**
 * A part as the deal stores it and the thread reads it: the user's 16 id bytes, the part number,
 * the user's sub for this snapshot (the leaf's HMAC key), and the part's sums as u256be.
 */
export const RECORD = { user: 0, part: 16, sub: 17, sums: 49 } as const;
export const recordSize = (width: number) => RECORD.sums + 32 * width;

/** Splits a vector into k parts of random non-negative amounts per currency that add up to it exactly. */
export function splitVector(vector: readonly bigint[], k: number, rng = new Randomness()): bigint[][] {
  const parts = Array.from({ length: k }, () => vector.map(() => 0n));
  vector.forEach((v, c) => splitAmount(v, k, rng).forEach((a, i) => (parts[i]![c] = a)));
  return parts;
}

/** One amount in k random non-negative pieces that add up to it: the gaps between k − 1 uniform cuts. */
export function splitAmount(v: bigint, k: number, rng: Randomness): bigint[] {
  if (k === 2) {
    const cut = rng.belowBig(v + 1n);
    return [cut, v - cut];
  }
  const cuts: bigint[] = new Array<bigint>(k - 1);
  for (let i = 0; i < k - 1; i++) cuts[i] = rng.belowBig(v + 1n);
  cuts.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const pieces: bigint[] = new Array<bigint>(k);
  let prev = 0n;
  for (let i = 0; i < k - 1; i++) {
    pieces[i] = cuts[i]! - prev;
    prev = cuts[i]!;
  }
  pieces[k - 1] = v - prev;
  return pieces;
}

/**
 * How many parts each user's vector is split into: two, or three while there is room. The tree is
 * padded to a power of two anyway; a third part drawn for any user at all would often double it,
 * and the hashing with it. So third parts take only the leaves that two parts each leave free below
 * the power of two. When that room is at most half the users, exactly that many users are drawn,
 * each set of them as likely as any other (selection sampling: a user is drawn with the chance of
 * the room left among the users left, so the last ones take what room remains). When there is
 * more room, each user is drawn with a chance of one half, so that a third part stays a draw.
 * `users` bounds the users with liabilities (every user counts), so the parts never pass it.
 */
export class PartBudget {
  private left: number;
  private room: number;
  private readonly fill: boolean;

  constructor(
    users: number,
    private readonly rng: Randomness,
  ) {
    this.left = users;
    this.room = paddedLeafCount(2 * users) - 2 * users;
    this.fill = this.room <= Math.floor(users / 2);
  }

  next(): number {
    const chances = this.fill ? this.room : Math.min(this.room, Math.floor(this.left / 2));
    const three = chances > 0 && this.rng.below(this.left) < chances;
    this.left--;
    if (!three) return 2;
    this.room--;
    return 3;
  }
}

/** `users`: the users table's count, which bounds the users with liabilities (PartBudget). */
export type DealSetup = { snapshotId: number; buckets: number; width: number; users: number };

/**
 * A page of users with liabilities, in the order read: `amounts` holds `width` decimal amounts in
 * base units per user (each non-negative, at least one above zero), `nonces` each user's nonce in hex.
 */
export type OwedPage = { users: string[]; amounts: string[]; nonces: string[] };

/** A page's records, bucket by bucket: `lengths[i]` records of bucket `buckets[i]`, end to end in `records`. */
export type DealtPage = { buckets: number[]; lengths: number[]; records: Uint8Array };

/** What the deal held in all: the users, their parts, and each currency's sum (decimal). */
export type DealTotals = { users: number; parts: number; sums: string[] };

/** A part per user at most: a vector is split into two or three. */
const MOST_PARTS = 3;

export class Dealer {
  private readonly rng = new Randomness();
  private readonly partsOf: PartBudget;
  private readonly size: number;
  private readonly sums: bigint[];
  private users = 0;
  private parts = 0;

  constructor(private readonly setup: DealSetup) {
    this.partsOf = new PartBudget(setup.users, this.rng);
    this.size = recordSize(setup.width);
    this.sums = Array.from({ length: setup.width }, () => 0n);
  }

  /**
   * A page's parts, dealt: first each user's number of parts and each part's bucket are drawn, so
   * that every record is then written straight into its bucket's place in the page's buffer.
   */
  deal(page: OwedPage): DealtPage {
    const { width, buckets, snapshotId } = this.setup;
    const size = this.size;
    const n = page.users.length;
    if (page.amounts.length !== n * width || page.nonces.length !== n) throw new FormatError('a page of liabilities cut short');
    const nonces = Buffer.from(page.nonces.join(''), 'hex');
    if (nonces.length !== 32 * n) throw new FormatError('a nonce is 32 bytes');
    const partsOf = new Uint8Array(n);
    const bucketOf = new Uint32Array(MOST_PARTS * n);
    const counts = new Uint32Array(buckets);
    let count = 0;
    for (let u = 0; u < n; u++) {
      partsOf[u] = this.partsOf.next();
      for (let p = 0; p < partsOf[u]!; p++, count++) counts[(bucketOf[count] = this.rng.below(buckets))]!++;
    }
    const out: DealtPage = { buckets: [], lengths: [], records: new Uint8Array(count * size) };
    const place = new Uint32Array(buckets);
    for (let b = 0, at = 0; b < buckets; b++) {
      place[b] = at;
      if (!counts[b]) continue;
      out.buckets.push(b);
      out.lengths.push(counts[b]!);
      at += counts[b]!;
    }
    const records = Buffer.from(out.records.buffer, out.records.byteOffset, out.records.byteLength);
    const at = new Array<number>(MOST_PARTS);
    for (let u = 0, i = 0; u < n; i += partsOf[u]!, u++) {
      const k = partsOf[u]!;
      // Each part's place in the page, its bucket's next.
      for (let p = 0; p < k; p++) at[p] = place[bucketOf[i + p]!]!++ * size;
      writeUuid(records, page.users[u]!, at[0]! + RECORD.user);
      // The sub straight into the first part's record, then the user and sub copied to the others.
      subKeyInto(nonces, 32 * u, snapshotId, records, at[0]! + RECORD.user, records, at[0]! + RECORD.sub);
      records[at[0]! + RECORD.part] = 0;
      for (let p = 1; p < k; p++) {
        records.copy(records, at[p]! + RECORD.user, at[0]! + RECORD.user, at[0]! + RECORD.sums);
        records[at[p]! + RECORD.part] = p;
      }
      for (let c = 0; c < width; c++) {
        const v = BigInt(page.amounts[u * width + c]!);
        if (v < 0n) throw new FormatError('a negative liability');
        this.sums[c]! += v;
        const pieces = splitAmount(v, k, this.rng);
        for (let p = 0; p < k; p++) writeU256(records, pieces[p]!, at[p]! + RECORD.sums + 32 * c);
      }
    }
    this.users += n;
    this.parts += count;
    return out;
  }

  totals(): DealTotals {
    return { users: this.users, parts: this.parts, sums: this.sums.map(String) };
  }
}
