// Building the tree with memory flat in the number of leaves: leaves arrive in order and each
// level keeps at most one node waiting for its sibling, so a tree of any size folds in O(log n).
import { FormatError, paddedLeafCount, paddingLeafHash, parentNode, type TreeNode } from './format';

export type NodeSink = (level: number, index: number, node: TreeNode) => void;

export class StreamingTree {
  private readonly waiting: (TreeNode | undefined)[] = [];
  private readonly counts: number[] = [];
  private leaves = 0;

  /** `leafCount` is the padded size (a power of two); `emit` receives every node, leaves too. */
  constructor(private readonly leafCount: number, private readonly emit: NodeSink) {
    if (leafCount < 1 || paddedLeafCount(leafCount) !== leafCount) throw new FormatError('the leaf count is a power of two');
  }

  push(leaf: TreeNode): void {
    if (this.leaves >= this.leafCount) throw new FormatError('more leaves than the tree holds');
    this.leaves++;
    this.place(0, leaf);
  }

  /** Pads with padding leaves up to the leaf count and returns the root. */
  finish(snapshotId: number, width: number): TreeNode {
    while (this.leaves < this.leafCount) this.push({ hash: paddingLeafHash(snapshotId, this.leaves), sums: Array.from({ length: width }, () => 0n) });
    const root = this.waiting[Math.log2(this.leafCount)];
    if (!root) throw new FormatError('the tree did not fold to one root');
    return root;
  }

  private place(level: number, node: TreeNode): void {
    const index = this.counts[level] ?? 0;
    this.counts[level] = index + 1;
    this.emit(level, index, node);
    const left = this.waiting[level];
    if (index % 2 === 1 && left) {
      this.waiting[level] = undefined;
      this.place(level + 1, parentNode(left, node));
    } else {
      this.waiting[level] = node;
    }
  }
}

/** Index of the sibling of node `index` at `level`'s, for each level from the leaf up. */
export function pathIndices(leafIndex: number, leafCount: number): { level: number; index: number; side: 'left' | 'right' }[] {
  const out: { level: number; index: number; side: 'left' | 'right' }[] = [];
  for (let level = 0, i = leafIndex; 1 << level < leafCount; level++, i >>= 1) {
    out.push({ level, index: i ^ 1, side: i & 1 ? 'left' : 'right' });
  }
  return out;
}
