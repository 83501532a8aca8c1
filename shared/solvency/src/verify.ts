// The verifier: takes a proof as anyone downloaded it and says, check by check, whether it holds.
// It trusts nothing in the proof but the published signer's address, which the caller brings.
import { verifyMessage } from 'ethers';
import {
  CHAIN_ID,
  FormatError,
  VERSION,
  canonicalHeader,
  fromHex,
  leafHash,
  parentNode,
  parseSum,
  subKey,
  toHex,
  type Header,
  type Proof,
  type TreeNode,
} from './format';

export type CheckName = 'format' | 'sums' | 'path' | 'root' | 'parts' | 'signature' | 'balances';

export interface Check {
  name: CheckName;
  ok: boolean;
  /** Plain English for the command line; the pages word each check in their own language. */
  detail: string;
}

export interface Verdict {
  ok: boolean;
  checks: Check[];
  /** The user's balances in the snapshot, per currency of the header (the parts added up), when they parse. */
  balances: string[] | null;
  snapshotId: number | null;
  blockNumber: number | null;
}

export interface VerifyOptions {
  /** The operator's published solvency signer (GET /api/v1/solvency/signer, or the README). */
  signer: string;
  /** Balances the user expects, per currency of the header; checked only when given. */
  expectedBalances?: readonly (string | bigint)[];
}

const isInt = (v: unknown, min = 0): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= min;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const HEADER_KEYS = ['version', 'snapshotId', 'takenAt', 'chainId', 'blockNumber', 'blockHash', 'currencies', 'decimals', 'root', 'sums', 'leafCount'];

function headerProblem(h: unknown): string | null {
  if (!isObject(h)) return 'the header is not an object';
  const keys = Object.keys(h);
  if (keys.length !== HEADER_KEYS.length || keys.some((k, i) => k !== HEADER_KEYS[i])) return `the header keys are not ${HEADER_KEYS.join(',')} in that order`;
  if (h.version !== VERSION) return `version is not ${VERSION}`;
  if (!isInt(h.snapshotId, 1)) return 'snapshotId is not a positive integer';
  if (typeof h.takenAt !== 'string' || Number.isNaN(Date.parse(h.takenAt))) return 'takenAt is not an ISO time';
  if (h.chainId !== CHAIN_ID) return `chainId is not ${CHAIN_ID}`;
  if (!isInt(h.blockNumber)) return 'blockNumber is not a non-negative integer';
  if (typeof h.blockHash !== 'string' || !/^0x[0-9a-f]{64}$/.test(h.blockHash)) return 'blockHash is not 32 bytes of lower-case hex';
  if (typeof h.root !== 'string' || !/^0x[0-9a-f]{64}$/.test(h.root)) return 'root is not 32 bytes of lower-case hex';
  if (!Array.isArray(h.currencies) || h.currencies.length === 0 || !h.currencies.every((c) => typeof c === 'string')) return 'currencies is not a list of names';
  if (new Set(h.currencies).size !== h.currencies.length) return 'a currency is listed twice';
  if (!Array.isArray(h.decimals) || h.decimals.length !== h.currencies.length || !h.decimals.every((d) => isInt(d))) return 'decimals do not match the currencies';
  if (!Array.isArray(h.sums) || h.sums.length !== h.currencies.length) return 'sums do not match the currencies';
  if (!isInt(h.leafCount, 1) || (h.leafCount & (h.leafCount - 1)) !== 0) return 'leafCount is not a power of two';
  return null;
}

function proofProblem(p: unknown): string | null {
  if (!isObject(p)) return 'the proof is not an object';
  const problem = headerProblem(p.header);
  if (problem) return problem;
  if (typeof p.signature !== 'string') return 'no signature';
  if (typeof p.userId !== 'string') return 'no userId';
  if (typeof p.nonce !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(p.nonce)) return 'the nonce is not 32 bytes of hex';
  if (!Array.isArray(p.parts) || p.parts.length === 0) return 'no parts';
  const width = (p.header as Header).currencies.length;
  for (const part of p.parts) {
    if (!isObject(part) || !isInt(part.part) || !isInt(part.leafIndex) || !Array.isArray(part.sums) || !Array.isArray(part.path)) return 'a part is malformed';
    if (part.sums.length !== width) return `part ${String(part.part)} has not ${width} sums`;
    for (const step of part.path) {
      if (!isObject(step) || typeof step.hash !== 'string' || !Array.isArray(step.sums) || step.sums.length !== width) return `part ${part.part}: a path step is malformed`;
      if (step.side !== 'left' && step.side !== 'right') return `part ${part.part}: a side is neither left nor right`;
    }
  }
  return null;
}

function tryCheck(name: CheckName, run: () => string): Check {
  try {
    return { name, ok: true, detail: run() };
  } catch (e) {
    return { name, ok: false, detail: e instanceof Error ? e.message : String(e) };
  }
}

/** Verifies a proof (parsed JSON) against the published signer. Never throws. */
export function verifyProof(input: unknown, options: VerifyOptions): Verdict {
  const checks: Check[] = [];
  const problem = proofProblem(input);
  checks.push({ name: 'format', ok: !problem, detail: problem ?? 'the proof and its header are well-formed' });
  if (problem) return { ok: false, checks, balances: null, snapshotId: null, blockNumber: null };
  const proof = input as Proof;
  const { header } = proof;

  // Every sum in the proof is an unsigned 256-bit integer: a negative one could cancel a liability.
  let headerSums: bigint[] = [];
  const sums = tryCheck('sums', () => {
    headerSums = header.sums.map(parseSum);
    for (const part of proof.parts) {
      part.sums.forEach(parseSum);
      for (const step of part.path) step.sums.forEach(parseSum);
    }
    return 'every sum is an integer at least 0 and below 2^256';
  });
  checks.push(sums);

  const depth = Math.log2(header.leafCount);
  const path = tryCheck('path', () => {
    for (const part of proof.parts) {
      if (part.leafIndex >= header.leafCount) throw new FormatError(`part ${part.part}: leaf ${part.leafIndex} is outside a tree of ${header.leafCount}`);
      if (part.path.length !== depth) throw new FormatError(`part ${part.part}: the path has ${part.path.length} steps, the tree ${depth} levels`);
      part.path.forEach((step, level) => {
        // A leaf's position fixes the side of each sibling: a sibling moved to the other side is another tree.
        const expected = (part.leafIndex >> level) & 1 ? 'left' : 'right';
        if (step.side !== expected) throw new FormatError(`part ${part.part}: the sibling at level ${level} should sit on the ${expected}`);
      });
    }
    return `each path has ${depth} steps on the sides its leaf's position gives`;
  });
  checks.push(path);

  const root = tryCheck('root', () => {
    if (!sums.ok) throw new FormatError('not folded: a sum is out of range');
    const sub = subKey(fromHex(proof.nonce, 32), header.snapshotId, proof.userId);
    for (const part of proof.parts) {
      let node: TreeNode = { hash: leafHash(sub, part.part, part.sums.map(parseSum)), sums: part.sums.map(parseSum) };
      for (const step of part.path) {
        const sibling: TreeNode = { hash: fromHex(step.hash, 32), sums: step.sums.map(parseSum) };
        // parentNode refuses a total that reaches 2^256; its sums are its children's by construction.
        node = step.side === 'left' ? parentNode(sibling, node) : parentNode(node, sibling);
      }
      if (toHex(node.hash) !== header.root) throw new FormatError(`part ${part.part} folds to ${toHex(node.hash)}, not the header's root`);
      if (node.sums.some((s, i) => s !== headerSums[i])) throw new FormatError(`part ${part.part} folds to sums ${node.sums.join(',')}, not the header's`);
    }
    return `every part's leaf, recomputed from the nonce, folds to the root ${header.root} and its sums`;
  });
  checks.push(root);

  let balances: bigint[] | null = null;
  const parts = tryCheck('parts', () => {
    const numbers = proof.parts.map((p) => p.part).sort((a, b) => a - b);
    if (numbers.length < 2) throw new FormatError('a balance is split into at least two parts');
    if (numbers.some((n, i) => n !== i)) throw new FormatError(`the parts are numbered ${numbers.join(',')}, not 0…${numbers.length - 1}`);
    if (new Set(proof.parts.map((p) => p.leafIndex)).size !== proof.parts.length) throw new FormatError('two parts claim the same leaf');
    if (!sums.ok) throw new FormatError('not added: a sum is out of range');
    balances = header.currencies.map((_, i) => proof.parts.reduce((s, p) => s + parseSum(p.sums[i]), 0n));
    return `${numbers.length} parts, on distinct leaves, add up to ${balances.map((b, i) => `${b} ${header.currencies[i]}`).join(', ')} (base units)`;
  });
  checks.push(parts);

  if (options.expectedBalances) {
    const expected = options.expectedBalances;
    checks.push(tryCheck('balances', () => {
      if (!balances) throw new FormatError('the parts do not add up');
      const got = balances;
      if (expected.length !== got.length || expected.some((e, i) => BigInt(e) !== got[i])) throw new FormatError(`the parts add up to ${got.join(',')}, not the expected ${expected.join(',')}`);
      return 'the parts add up to the balances expected';
    }));
  }

  checks.push(tryCheck('signature', () => {
    const signer = verifyMessage(canonicalHeader(header), proof.signature);
    if (signer.toLowerCase() !== options.signer.toLowerCase()) throw new FormatError(`the header is signed by ${signer}, not the published signer ${options.signer}`);
    return `the header is signed by the published signer ${signer}`;
  }));

  const b = balances as bigint[] | null;
  return {
    ok: checks.every((c) => c.ok),
    checks,
    balances: b ? b.map(String) : null,
    snapshotId: header.snapshotId,
    blockNumber: header.blockNumber,
  };
}
