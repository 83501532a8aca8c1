// The tree's hashing on a thread of its own (node:worker_threads): while this thread makes the
// leaves' HMACs and folds them, the snapshot's thread reads the next bucket of parts from the
// database and writes the blocks already folded. Before the tree, the same thread does the deal's
// per-user work (deal.ts) while the snapshot's thread reads the next page of liabilities. This one
// file is both sides: the snapshot imports `TreeWorker`, and the thread it starts runs this file
// again, which then serves.
import path from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { FormatError } from '@app/solvency';
import { Dealer, RECORD, recordSize, type DealSetup, type DealTotals, type DealtPage, type OwedPage } from './deal';
import { BlockTree, type Node } from './tree';

export { RECORD, recordSize };

type Setup = { snapshotId: number; leafCount: number; realLeaves: number; width: number };

/**
 * Blocks the thread has folded, for `solvency_blocks`: block i is `counts[i]` hashes then as many
 * nodes' sums, in `bytes` one block after another.
 */
export type PackedBlocks = { levels: number[]; blocks: number[]; counts: number[]; bytes: Uint8Array };
type Reply = { packed: PackedBlocks; root?: { hash: string; encoded: Uint8Array } } | { dealt: DealtPage } | { totals: DealTotals } | { error: string };
type Request = { deal: DealSetup } | { owed: OwedPage } | { dealEnd: true } | { setup: Setup } | { records: Uint8Array; order: Uint32Array } | { finish: true };

/** How many blocks the padding's folding hands back at once, so the thread holds no more than that. */
const PADDING_BATCH = 512;

/**
 * The API is TypeScript run by tsx, whose ES module hooks a thread does not inherit on this Node:
 * the thread loads tsx's CommonJS hook itself, under tsx and under jest alike.
 */
const threadOptions = () => ({ execArgv: ['--require', require.resolve('tsx/cjs')] });

/**
 * The snapshot's side: started before the liabilities are read (loading a thread takes a moment),
 * told the tree's shape once they are; buckets of records go in, packed blocks come back in the
 * same order, then the root.
 */
export class TreeWorker {
  private readonly worker: Worker;
  private readonly replies: Reply[] = [];
  private wake: (() => void) | null = null;
  private failure: Error | null = null;

  constructor() {
    this.worker = new Worker(path.join(__dirname, 'tree-worker.ts'), { ...threadOptions(), workerData: { solvencyTree: true } });
    this.worker.on('message', (r: Reply) => this.arrive(r));
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`the tree's thread exited (${code})`)));
  }

  /** The deal's setup; then pages of liabilities go in (`owe`) and come back dealt (`dealt`), in order. */
  deal(setup: DealSetup): void {
    this.post({ deal: setup });
  }

  owe(page: OwedPage): void {
    this.post({ owed: page });
  }

  async dealt(): Promise<DealtPage> {
    const reply = await this.reply();
    if (!('dealt' in reply)) throw new Error('the tree\'s thread answered out of turn');
    return reply.dealt;
  }

  /** Asked once every page's records are back: what the deal held in all. */
  async dealTotals(): Promise<DealTotals> {
    this.post({ dealEnd: true });
    const reply = await this.reply();
    if (!('totals' in reply)) throw new Error('the tree\'s thread answered out of turn');
    return reply.totals;
  }

  begin(snapshotId: number, leafCount: number, realLeaves: number, width: number): void {
    this.post({ setup: { snapshotId, leafCount, realLeaves, width } });
  }

  /**
   * A bucket's records, and the order they go into the tree in (`order[i]`: the record that is the
   * bucket's i-th leaf); buffers of their own are handed over (unusable here after), not copied.
   */
  push(records: Buffer, order: Uint32Array): void {
    if (this.failure) throw this.failure;
    // A view of a shared pool is copied into a buffer of its own: only a whole buffer can be handed over.
    const bytes = records.byteOffset === 0 && records.byteLength === records.buffer.byteLength ? new Uint8Array(records.buffer, 0, records.byteLength) : new Uint8Array(records);
    const transfer = [bytes.buffer as ArrayBuffer];
    if (order.byteOffset === 0 && order.byteLength === order.buffer.byteLength) transfer.push(order.buffer as ArrayBuffer);
    this.worker.postMessage({ records: bytes, order } satisfies Request, transfer);
  }

  /** The next reply: one per bucket pushed, then after `finish` the padding's blocks and the last with the root. */
  async next(): Promise<{ packed: PackedBlocks; root?: Node }> {
    const reply = await this.reply();
    if (!('packed' in reply)) throw new Error('the tree\'s thread answered out of turn');
    return { packed: reply.packed, ...(reply.root ? { root: { hash: reply.root.hash, encoded: Buffer.from(reply.root.encoded) } } : {}) };
  }

  finish(): void {
    this.post({ finish: true });
  }

  private post(m: Request): void {
    if (this.failure) throw this.failure;
    this.worker.postMessage(m);
  }

  private async reply(): Promise<Exclude<Reply, { error: string }>> {
    for (;;) {
      const reply = this.replies.shift();
      if (reply) {
        if ('error' in reply) throw new Error(reply.error);
        return reply;
      }
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }

  private arrive(reply: Reply): void {
    this.replies.push(reply);
    this.wake?.();
    this.wake = null;
  }

  private fail(err: Error): void {
    this.failure ??= err;
    this.wake?.();
    this.wake = null;
  }
}

/** The thread's side: folds what comes in, as it comes, and hands back each bucket's blocks. */
function serve(): void {
  const port = parentPort!;
  const done: { level: number; block: number; count: number; bytes: Buffer }[] = [];
  let setup: Setup | null = null;
  let tree: BlockTree | null = null;
  let dealer: Dealer | null = null;

  const pack = (): PackedBlocks => {
    const bytes = Buffer.concat(done.map((d) => d.bytes));
    const packed = { levels: done.map((d) => d.level), blocks: done.map((d) => d.block), counts: done.map((d) => d.count), bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    done.length = 0;
    return packed;
  };
  const send = (reply: Reply) => {
    const bytes = 'packed' in reply ? reply.packed.bytes : 'dealt' in reply ? reply.dealt.records : null;
    const transfer = bytes && bytes.byteLength === bytes.buffer.byteLength ? [bytes.buffer as ArrayBuffer] : [];
    port.postMessage(reply, transfer);
  };

  port.on('message', (m: Request) => {
    try {
      if ('deal' in m) {
        dealer = new Dealer(m.deal);
        return;
      }
      if ('owed' in m || 'dealEnd' in m) {
        if (!dealer) throw new FormatError('the deal was not set up');
        send('owed' in m ? { dealt: dealer.deal(m.owed) } : { totals: dealer.totals() });
        return;
      }
      if ('setup' in m) {
        setup = m.setup;
        tree = new BlockTree(setup.leafCount, setup.realLeaves, setup.width, (level, block, count, bytes) => done.push({ level, block, count, bytes: Buffer.from(bytes) }));
        return;
      }
      if (!setup || !tree) throw new FormatError('the tree was not set up');
      if ('records' in m) {
        const size = recordSize(setup.width);
        const bytes = Buffer.from(m.records.buffer, m.records.byteOffset, m.records.byteLength);
        if (bytes.length % size || m.order.length * size !== bytes.length) throw new FormatError('a bucket of records cut short');
        for (const i of m.order) {
          const at = i * size;
          tree.pushLeaf(bytes, at + RECORD.sub, bytes[at + RECORD.part]!, at + RECORD.sums);
        }
        send({ packed: pack() });
        return;
      }
      // Padding leaves stream through the same blocks: a tree padded to twice its parts stays flat too.
      while (tree.pushed < setup.leafCount) {
        tree.pushPadding(setup.snapshotId);
        if (done.length >= PADDING_BATCH) send({ packed: pack() });
      }
      const root = tree.finish(setup.snapshotId);
      send({ packed: pack(), root: { hash: root.hash, encoded: new Uint8Array(root.encoded) } });
    } catch (err) {
      send({ error: err instanceof Error ? err.message : String(err) });
    }
  });
}

if (!isMainThread && (workerData as { solvencyTree?: boolean } | null)?.solvencyTree) serve();
